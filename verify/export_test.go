package verify

import (
	"context"
	"errors"
	"math/big"
	"testing"
)

// What the external tests (package verify_test, which may import builder:
// builder imports mdp, which imports verify) need of the internals.

// CheckProfileAgainstRef compares a's profile with the reference
// algorithm of profile_ref_test.go.
func CheckProfileAgainstRef(t *testing.T, name string, a *Analysis, full bool) {
	t.Helper()
	checkAgainstRef(t, name, a, full)
}

// CheckProfileStagesCancelled checks that every internal stage of Profile
// stops on the cancelled context done.
func CheckProfileStagesCancelled(t *testing.T, a *Analysis, done context.Context) {
	t.Helper()
	var lines []pline
	var sc scratch
	for k := range a.numOrdered() {
		s, u := a.orderedPair(k)
		lines = append(lines, a.pairLines(s, u, &sc)...)
	}
	if _, err := floatHull(done, lines); !errors.Is(err, context.Canceled) {
		t.Errorf("floatHull: %v", err)
	}
	if _, _, err := exactEnvelope(done, lines, []int{0, 1, 2}); !errors.Is(err, context.Canceled) {
		t.Errorf("exactEnvelope: %v", err)
	}
	if _, err := upperHull(done, []line{{ratOne, ratOne}}); !errors.Is(err, context.Canceled) {
		t.Errorf("upperHull: %v", err)
	}
	if _, err := profileEnvelope(done, lines); !errors.Is(err, context.Canceled) {
		t.Errorf("profileEnvelope: %v", err)
	}
}

// LTLProb is Pr_s(f) through the automaton and product, whichever way Prob
// would take.
func (m *Checker) LTLProb(ctx context.Context, f *Formula) ([]*big.Rat, error) {
	return m.ltlProb(ctx, f)
}
