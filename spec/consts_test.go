package spec_test

import (
	"context"
	"math/big"
	"testing"

	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/spec"
	"github.com/google/go-cmp/cmp"
)

// TestConstsFromOutside: a constant declared without a value takes the
// one given, a defined one is overridden, and a missing value or a value
// for no constant is an error at a position, with the caller's hint.
func TestConstsFromOutside(t *testing.T) {
	const src = "const K\nconst alpha = 1/2\nmodel truncated_geometric(alpha = alpha, n = K)\ncheck dp(eps = ln(2))\n"
	hint := func(name string) string { return "give it with --const " + name + "=…" }
	load := func(consts map[string]*big.Rat) ([]string, string) {
		p, err := spec.Options{Consts: consts, ConstHint: hint}.Load(context.Background(), "k.dp", src)
		var out []string
		if list, ok := err.(source.ErrorList); ok {
			for _, e := range list {
				out = append(out, e.Error())
			}
		} else if err != nil {
			t.Fatal(err)
		}
		if p == nil || p.Model == nil || len(out) > 0 {
			return out, ""
		}
		return nil, p.Model.(*property.BuilderModel).Call
	}
	if errs, _ := load(nil); cmp.Diff([]string{"k.dp:1:7: constant K has no value: give it with --const K=…"}, errs) != "" {
		t.Errorf("no value: %v", errs)
	}
	if errs, m := load(map[string]*big.Rat{"K": big.NewRat(3, 1)}); len(errs) > 0 || m != "truncated_geometric(alpha = 1/2, n = 3)" {
		t.Errorf("K = 3: %v, model %q", errs, m)
	}
	if errs, m := load(map[string]*big.Rat{"K": big.NewRat(2, 1), "alpha": big.NewRat(1, 4)}); len(errs) > 0 || m != "truncated_geometric(alpha = 1/4, n = 2)" {
		t.Errorf("alpha overridden: %v, model %q", errs, m)
	}
	errs, _ := load(map[string]*big.Rat{"K": big.NewRat(2, 1), "N": big.NewRat(1, 1)})
	if d := cmp.Diff([]string{"k.dp:1:1: a value is given for N, which is no constant of the file (its constants: K, alpha)"}, errs); d != "" {
		t.Errorf("a value for no constant (-want +got):\n%s", d)
	}
}
