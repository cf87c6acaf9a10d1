package mdp

import (
	"context"
	"slices"
	"testing"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/verify"
)

// survey1 is the interactive survey with one question: the analyst asks
// L (yes w.p. 3/4 from +, 1/4 from −) or H (4/5 and 1/5).
func survey1(t testing.TB) (*MDP, [][2]int) {
	x := newMDPBuilder("L", "H")
	plus := x.state("plus", nil)
	minus := x.state("minus", nil)
	yes := x.state("yes", nil, "ans", 1)
	no := x.state("no", nil, "ans", 0)
	x.choose(plus, "L", yes, "3/4", no, "1/4")
	x.choose(plus, "H", yes, "4/5", no, "1/5")
	x.choose(minus, "L", yes, "1/4", no, "3/4")
	x.choose(minus, "H", yes, "1/5", no, "4/5")
	return x.build(t), [][2]int{{plus, minus}}
}

// survey2 asks two questions; the output is the pair of answers.
func survey2(t testing.TB) (*MDP, [][2]int) {
	x := newMDPBuilder("L", "H")
	in := map[string]int{}
	for _, r := range []string{"+", "-"} {
		in[r] = x.state(r, nil)
	}
	mid := map[string]int{}
	for _, r := range []string{"+", "-"} {
		for _, a := range []string{"y", "n"} {
			mid[r+a] = x.state(r+a, nil)
		}
	}
	out := map[string]int{}
	for _, a := range []string{"y", "n"} {
		for _, b := range []string{"y", "n"} {
			out[a+b] = x.state(a+b, nil, "a1", b2i(a == "y"), "a2", b2i(b == "y"))
		}
	}
	// pYes[r][q]: probability of yes from respondent r to question q.
	pYes := map[string]map[string][2]string{
		"+": {"L": {"3/4", "1/4"}, "H": {"4/5", "1/5"}},
		"-": {"L": {"1/4", "3/4"}, "H": {"1/5", "4/5"}},
	}
	for _, r := range []string{"+", "-"} {
		for _, q := range []string{"L", "H"} {
			p := pYes[r][q]
			x.choose(in[r], q, mid[r+"y"], p[0], mid[r+"n"], p[1])
			for _, a := range []string{"y", "n"} {
				x.choose(mid[r+a], q, out[a+"y"], p[0], out[a+"n"], p[1])
			}
		}
	}
	return x.build(t), [][2]int{{in["+"], in["-"]}}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestSurveyOneQuestion(t *testing.T) {
	m, pairs := survey1(t)
	ctx := context.Background()
	r, err := TightEpsilon(ctx, m, pairs, verify.FinalVar("ans"), rat("0"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantEps(t, "ε", r.Eps, lnRat(t, "4"))
	if !r.Exact || !slices.Equal(r.Sequence, []string{"H"}) || r.Horizon != 1 {
		t.Errorf("exact %v, sequence %v, horizon %d; want exact [H] at 1 (%s)", r.Exact, r.Sequence, r.Horizon, r.Reason)
	}
	// δ at ε = 0: the total variation of H, 3/5.
	d, err := TightDelta(ctx, m, pairs, verify.FinalVar("ans"), exact.Eps{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantReal(t, "δ", d.Delta, "3/5")
	if !d.Exact || d.Verdict != Holds || !slices.Equal(d.Sequence, []string{"H"}) || !slices.Equal(d.Event, []string{"ans=1"}) {
		t.Errorf("got %+v", d)
	}
}

func TestSurveyTwoQuestions(t *testing.T) {
	m, pairs := survey2(t)
	ctx := context.Background()
	out := verify.FinalVars("a1", "a2")
	r, err := TightEpsilon(ctx, m, pairs, out, rat("0"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	// HH: Pr_+(yes, yes) = 16/25, Pr_−(yes, yes) = 1/25.
	wantEps(t, "ε", r.Eps, lnRat(t, "16"))
	if !r.Exact || !slices.Equal(r.Sequence, []string{"H", "H"}) {
		t.Errorf("exact %v, sequence %v (%s)", r.Exact, r.Sequence, r.Reason)
	}
	// δ at ε = 0: HH gives (16, 4, 4, 1)/25 against (1, 4, 4, 16)/25, a
	// total variation of 15/25; HL gives (12, 4, 3, 1)/20 against
	// (1, 3, 4, 12)/20, 12/20; LL (9, 3, 3, 1)/16 against (1, 3, 3, 9)/16,
	// 8/16; LH gives 3/5 too. The worst is 3/5, reached first by LH.
	d, err := TightDelta(ctx, m, pairs, out, exact.Eps{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantReal(t, "δ", d.Delta, "3/5")
	if !d.Exact || !slices.Equal(d.Sequence, []string{"L", "H"}) {
		t.Errorf("got %+v", d)
	}
	// At ε = ln 2 under HH: Σ max(0, P_+ − 2·P_−) = (16 − 2)/25 + (4 − 8 < 0) … = 14/25.
	d2, err := TightDelta(ctx, m, pairs, out, lnRat(t, "2"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantReal(t, "δ at ln 2", d2.Delta, "14/25")
	if !slices.Equal(d2.Sequence, []string{"H", "H"}) || !slices.Equal(d2.Event, []string{"(a1=1, a2=1)"}) {
		t.Errorf("got %+v", d2)
	}
}

// TestSurveyD: D{0, ?}[X ans=1] with one question: H gives 4/5 against
// 1/5; Proposition 2 gives the same bound, 3/5.
func TestSurveyD(t *testing.T) {
	m, pairs := survey1(t)
	yes := verify.Atom("ans=1", func(s int) (bool, error) {
		v, ok := m.Frame.Value(s, "ans")
		return ok && v == 1, nil
	})
	r, err := TightDeltaD(context.Background(), m, pairs, verify.Next(1, yes), exact.Eps{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantReal(t, "δ", r.Delta, "3/5")
	wantRat(t, "Pr_From", r.ProbFrom, "4/5")
	wantRat(t, "Pr_To", r.ProbTo, "1/5")
	if r.Upper == nil {
		t.Fatal("no upper bound")
	}
	wantReal(t, "upper", *r.Upper, "3/5")
	if !r.Exact || r.Verdict != Holds || !slices.Equal(r.Sequence, []string{"H"}) || r.From != pairs[0][0] || r.Horizon != 1 {
		t.Errorf("got %+v", r)
	}
	c, err := CheckD(context.Background(), m, pairs, verify.Next(1, yes), lnRat(t, "3"), rat("1/10"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	// At ε = ln 3: H gives 4/5 − 3/5 = 1/5 > 1/10; L gives 3/4 − 3/4 = 0.
	wantReal(t, "δ at ln 3", c.Delta, "1/5")
	if c.Verdict != Violated || !c.Exact || !slices.Equal(c.Sequence, []string{"H"}) {
		t.Errorf("got %+v", c)
	}
	e, err := TightEpsilonD(context.Background(), m, pairs, verify.Next(1, yes), rat("0"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantEps(t, "ε", e.Eps, lnRat(t, "4"))
	if !e.Exact || !slices.Equal(e.Sequence, []string{"H"}) || e.Upper == nil {
		t.Errorf("got %+v", e)
	}
	wantEps(t, "ε upper", *e.Upper, lnRat(t, "4"))
}
