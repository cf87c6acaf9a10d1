package poly

import (
	"context"
	"math/big"
)

// Between returns a simple rational strictly between the algebraic
// numbers a < b, refining their isolating intervals as far as needed.
func Between(ctx context.Context, a, b Algebraic) (*big.Rat, error) { return between(ctx, a, b) }
