package report

import "math/big"

func exactRatio(a, b *big.Rat) string { return exact(new(big.Rat).Quo(a, b)) }
