package param

import (
	"context"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/poly"
)

// fromBuilder is FromBuilder on (0, 1) for the builder named name, its
// argument arg the parameter (named as the argument), the others set by
// set and their defaults.
func fromBuilder(ctx context.Context, lim poly.Limits, name, arg string, set func(a *builder.Args)) (*Chain, error) {
	d, _ := builder.Lookup(name)
	a := builder.NewArgs()
	a.SetRat(arg, big.NewRat(1, 2))
	set(a)
	if err := d.WithDefaults(a); err != nil {
		return nil, err
	}
	set(a) // again, for a nil argument that WithDefaults filled
	return FromBuilder(ctx, lim, d, a, arg, arg, poly.Open(new(big.Rat), big.NewRat(1, 1)))
}

// MaxRange is the largest range of the parametric geometric mechanisms.
const MaxRange = 500

// The parametric models the tests use, each for every value of one
// argument in (0, 1).

func TruncatedGeometric(ctx context.Context, lim poly.Limits, n int) (*Chain, error) {
	return fromBuilder(ctx, lim, "truncated_geometric", "alpha", func(a *builder.Args) { a.SetInt("n", n) })
}

func SurveyTheta1(ctx context.Context, lim poly.Limits, theta2 *big.Rat) (*Chain, error) {
	return fromBuilder(ctx, lim, "survey", "theta1", func(a *builder.Args) { a.SetRat("theta2", theta2) })
}

func SurveyTheta2(ctx context.Context, lim poly.Limits, theta1 *big.Rat) (*Chain, error) {
	return fromBuilder(ctx, lim, "survey", "theta2", func(a *builder.Args) { a.SetRat("theta1", theta1) })
}

func CutoffDecision(ctx context.Context, lim poly.Limits, m, lo, hi int) (*Chain, error) {
	return fromBuilder(ctx, lim, "cutoff_decision", "alpha", func(a *builder.Args) {
		a.SetInt("m", m)
		a.SetInt("lo", lo)
		a.SetInt("hi", hi)
	})
}

func AboveThresholdQ(ctx context.Context, lim poly.Limits, alphaT *big.Rat, n, k int, cmp builder.Comparison) (*Chain, error) {
	return fromBuilder(ctx, lim, "above_threshold", "alpha_q", func(a *builder.Args) {
		a.SetRat("alpha_t", alphaT)
		a.SetInt("n", n)
		a.SetInt("k", k)
		a.SetChoice("cmp", cmp.String())
	})
}

func YarrowGeometric(ctx context.Context, lim poly.Limits, countMin, countMax, bits int) (*Chain, error) {
	return fromBuilder(ctx, lim, "yarrow_geometric", "alpha", func(a *builder.Args) {
		a.SetInt("count_min", countMin)
		a.SetInt("count_max", countMax)
		a.SetInt("bits", bits)
	})
}

// TestCatalogParametric: every builder of the catalogue that has a form for
// every parameter value has it for Rational arguments only, and that form
// (every required integer 3, every other argument its default, then each
// choice and sensitivity 2 in turn) is, at
// several parameter values, exactly the chain Build makes there: the same
// states, valuations, labels, inputs, rows and neighbours. A builder
// without ParamArgs has no Parametric.
func TestCatalogParametric(t *testing.T) {
	n := 0
	for _, d := range builder.Catalog() {
		if (len(d.ParamArgs) == 0) != (d.Parametric == nil) {
			t.Errorf("%s: ParamArgs %v and Parametric set %v", d.Name, d.ParamArgs, d.Parametric != nil)
		}
		for _, arg := range d.ParamArgs {
			if p, ok := d.Param(arg); !ok || p.Kind != builder.Rational {
				t.Errorf("%s: the parameter argument %s is not a Rational parameter", d.Name, arg)
				continue
			}
			// every choice of every Choice parameter, and sensitivity 2
			variants := []func(*builder.Args){func(*builder.Args) {}}
			for _, p := range d.Params {
				for _, c := range p.Choices {
					variants = append(variants, func(a *builder.Args) { a.SetChoice(p.Name, c) })
				}
				if p.Name == "sensitivity" {
					variants = append(variants, func(a *builder.Args) { a.SetInt(p.Name, 2) })
				}
			}
			for _, set := range variants {
				n++
				checkParametric(t, d, arg, set)
			}
		}
	}
	if n < 8 {
		t.Errorf("%d parametric forms checked, want at least 8", n)
	}
}

// checkParametric checks d's form for every value of arg, with every
// required integer 3, set's arguments, and every other its default.
func checkParametric(t *testing.T, d *builder.Def, arg string, set func(*builder.Args)) {
	ctx := context.Background()
	args := func(x *big.Rat) *builder.Args {
		a := builder.NewArgs()
		for _, p := range d.Params {
			if p.Kind == builder.Integer && p.Default == "" {
				a.SetInt(p.Name, 3)
			}
		}
		a.SetRat(arg, x)
		set(a)
		if err := d.WithDefaults(a); err != nil {
			t.Fatal(err)
		}
		return a
	}
	pc, err := FromBuilder(ctx, poly.Limits{}, d, args(big.NewRat(1, 2)), arg, arg, poly.Open(new(big.Rat), big.NewRat(1, 1)))
	if err != nil {
		t.Errorf("%s(%s = …): %v", d.Name, arg, err)
		return
	}
	for _, x := range []*big.Rat{big.NewRat(1, 3), big.NewRat(1, 2), big.NewRat(7, 9)} {
		got, err := pc.Instantiate(x)
		if err != nil {
			t.Fatal(err)
		}
		a := args(x)
		if err := d.CheckSize(a, model.Limits{}); err != nil {
			t.Fatal(err)
		}
		m, err := d.Build(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		if diff := chainDiff(got, m.Chain); diff != "" {
			t.Errorf("%s(%s = %s): the parametric chain differs from Build's: %s", d.Name, arg, x.RatString(), diff)
		}
		if !equalPairs(pc.Neighbours, m.Neighbours) {
			t.Errorf("%s(%s = …): neighbours %v, Build's %v", d.Name, arg, pc.Neighbours, m.Neighbours)
		}
	}
}

// chainDiff says how a differs from b ("" when they are the same chain).
func chainDiff(a, b *chain.Chain) string {
	if a.NumStates() != b.NumStates() {
		return "a different number of states"
	}
	for s := range a.NumStates() {
		if a.Name(s) != b.Name(s) || a.Valuation(s).String() != b.Valuation(s).String() ||
			fmtStrings(a.Labels(s)) != fmtStrings(b.Labels(s)) || a.IsInput(s) != b.IsInput(s) {
			return "state " + a.Name(s) + " vs " + b.Name(s)
		}
		ta, pa := a.Row(s)
		tb, pb := b.Row(s)
		if len(ta) != len(tb) {
			return "the row of " + a.Name(s)
		}
		for i := range ta {
			if ta[i] != tb[i] || pa[i].Cmp(pb[i]) != 0 {
				return "the row of " + a.Name(s)
			}
		}
	}
	return ""
}

func fmtStrings(s []string) string {
	out := ""
	for _, x := range s {
		out += x + ","
	}
	return out
}

func equalPairs(a, b [][2]int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
