package dptest

import "math/big"

// reused is the explored distribution of a sub-sampler (Reuse).
type reused struct {
	probs []*big.Rat
}

func (u *reused) branchProb(b int) *big.Rat { return u.probs[b] }
