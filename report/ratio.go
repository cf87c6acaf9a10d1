package report

import "math/big"

func exactRatio(a, b *big.Rat) string { return ratText(new(big.Rat).Quo(a, b)) }
