package param

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/dpcheck/dpcheck/poly"
)

// randomRetry is a random chain that is acyclic but for self-loops: state
// u < n moves to a later state, or stays with a probability that may be
// α, α², (1 − α)/2 or a number; states n.. are absorbing outputs.
func randomRetry(t *testing.T, rng *rand.Rand, n int) *Chain {
	t.Helper()
	outs := 3
	var names []string
	for u := range n + outs {
		names = append(names, fmt.Sprintf("s%d", u))
	}
	frame, err := Frame(names, nil, nil, []int{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	a := poly.FromPoly(poly.X())
	loops := []poly.RatFunc{a, poly.FromPoly(poly.X().Mul(poly.X())), poly.FromPoly(poly.FromInts(1, -1).Scale(big.NewRat(1, 2))), poly.FromPoly(poly.Const(big.NewRat(1, 3)))}
	one := poly.FromPoly(poly.FromInts(1))
	rows := make([][]Trans, n+outs)
	for u := range n {
		var loop poly.RatFunc
		if rng.IntN(3) > 0 {
			loop = loops[rng.IntN(len(loops))]
		}
		rest, err := poly.Limits{}.RatSub(ctx, one, loop)
		if err != nil {
			t.Fatal(err)
		}
		// The rest goes to two later states, split α : 1 − α, or to one.
		v, w := u+1+rng.IntN(n+outs-u-1), u+1+rng.IntN(n+outs-u-1)
		var row []Trans
		if v == w {
			row = []Trans{{To: v, P: rest}}
		} else {
			pv, _ := poly.Limits{}.RatMul(ctx, rest, a)
			pw, _ := poly.Limits{}.RatSub(ctx, rest, pv)
			row = []Trans{{To: min(v, w), P: pv}, {To: max(v, w), P: pw}}
		}
		if !loop.Num().IsZero() {
			row = append([]Trans{{To: u, P: loop}}, row...)
		}
		rows[u] = row
	}
	pc, err := New(ctx, poly.Limits{}, frame, "α", poly.Open(new(big.Rat), big.NewRat(1, 1)), rows, [][2]int{{0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	return pc
}

// TestSelfLoopsPropagated: a chain acyclic but for self-loops is
// propagated, each self-loop divided out, and gives the distributions
// state elimination gives, on random chains.
func TestSelfLoopsPropagated(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 9))
	for range 60 {
		pc := randomRetry(t, rng, 2+rng.IntN(9))
		good, err := pc.absorbable(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []int{0, 1} {
			post, acyclic := pc.reach(s)
			if !acyclic {
				t.Fatalf("from s%d: cyclic", s)
			}
			got, err := pc.distribution(ctx, inputPlan{s: s, post: post, acyclic: true}, good)
			if err != nil {
				t.Fatal(err)
			}
			want, err := pc.eliminate(ctx, s, post, good)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Out) != len(want.Out) {
				t.Fatalf("from s%d: outputs %v, eliminated %v", s, got.Out, want.Out)
			}
			for i := range got.Out {
				if got.Out[i] != want.Out[i] || !got.P[i].Equal(want.P[i]) {
					t.Fatalf("from s%d: Pr(s%d) = %s, eliminated Pr(s%d) = %s", s, got.Out[i], got.P[i], want.Out[i], want.P[i])
				}
			}
		}
	}
}

// TestSelfLoopsBeyondElimination: a line of 1000 states, each staying with
// probability α and moving on otherwise, is far beyond state elimination's
// MaxEliminationStates but acyclic but for self-loops: every input
// reaches the end with probability 1.
func TestSelfLoopsBeyondElimination(t *testing.T) {
	n := 1000
	var names []string
	for u := range n + 1 {
		names = append(names, fmt.Sprintf("s%d", u))
	}
	frame, err := Frame(names, nil, nil, []int{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	rows := make([][]Trans, n+1)
	for u := range n {
		rows[u] = []Trans{{To: u, P: poly.FromPoly(poly.X())}, {To: u + 1, P: poly.FromPoly(poly.FromInts(1, -1))}}
	}
	pc, err := New(ctx, poly.Limits{}, frame, "α", poly.Open(new(big.Rat), big.NewRat(1, 1)), rows, [][2]int{{0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	a, err := Analyze(ctx, pc)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []int{0, 1} {
		d, _ := a.Distribution(s)
		if len(d.Out) != 1 || a.OutputName(d.Out[0]) != fmt.Sprintf("s%d", n) || !d.P[0].Equal(poly.FromPoly(poly.FromInts(1))) {
			t.Errorf("from s%d: %v %v", s, d.Out, d.P)
		}
	}
}
