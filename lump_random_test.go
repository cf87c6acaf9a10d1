package dpcheck_test

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck"
	"github.com/google/go-cmp/cmp"
)

// randomSpec writes a .dp file of a random explicit chain with many
// bisimilar states (a random base chain whose states are copied, each
// transition into a base state split among its copies; a copy sometimes
// carries a label or value of its own), random inputs and neighbours, and
// statements of every kind lumping applies to.
func randomSpec(rng *rand.Rand) string {
	k := 2 + rng.IntN(5)
	type base struct {
		x      int
		labels []string
		to     []int
		p      []*big.Rat
	}
	bases := make([]base, k)
	for i := range bases {
		b := &bases[i]
		b.x = rng.IntN(3)
		for _, l := range []string{"A", "B"} {
			if rng.IntN(3) == 0 {
				b.labels = append(b.labels, l)
			}
		}
		if rng.IntN(4) == 0 {
			continue // absorbing
		}
		left := big.NewRat(1, 1)
		for n := 1 + rng.IntN(3); n > 0 && left.Sign() > 0; n-- {
			p := new(big.Rat).Set(left)
			if n > 1 {
				p.Mul(p, big.NewRat(1, int64(1+rng.IntN(3))))
			}
			left.Sub(left, p)
			b.to = append(b.to, rng.IntN(k))
			b.p = append(b.p, p)
		}
	}
	var names [][]string
	var src strings.Builder
	src.WriteString("chain {\n  state all (x = 9) [A, B, C] // every label is some state's\n")
	n := 0
	for i, b := range bases {
		names = append(names, nil)
		for range 1 + rng.IntN(3) {
			name := fmt.Sprintf("s%d", n)
			n++
			names[i] = append(names[i], name)
			x, labels := b.x, b.labels
			switch rng.IntN(10) {
			case 0:
				x += 3
			case 1:
				labels = append(labels[:len(labels):len(labels)], "C")
			}
			fmt.Fprintf(&src, "  state %s (x = %d) [%s]\n", name, x, strings.Join(labels, ", "))
		}
	}
	for i, b := range bases {
		if len(b.to) == 0 {
			continue
		}
		for _, s := range names[i] {
			var order []string
			prob := map[string]*big.Rat{}
			add := func(t string, p *big.Rat) {
				if prob[t] == nil {
					order = append(order, t)
					prob[t] = new(big.Rat)
				}
				prob[t].Add(prob[t], p)
			}
			sink := false
			for j, t := range b.to {
				cs := names[t]
				switch {
				case rng.IntN(8) == 0:
					sink = true
				case len(cs) > 1 && rng.IntN(2) == 0:
					half := new(big.Rat).Mul(b.p[j], big.NewRat(1, 2))
					add(cs[rng.IntN(len(cs))], half)
					add(cs[rng.IntN(len(cs))], half)
				default:
					add(cs[rng.IntN(len(cs))], b.p[j])
				}
			}
			var parts []string
			for _, t := range order {
				parts = append(parts, t+" : "+prob[t].RatString())
			}
			switch {
			case len(parts) == 0:
				fmt.Fprintf(&src, "  %s -> %s : 0 else sink\n", s, s)
			case sink:
				fmt.Fprintf(&src, "  %s -> %s else sink\n", s, strings.Join(parts, ", "))
			default:
				fmt.Fprintf(&src, "  %s -> %s\n", s, strings.Join(parts, ", "))
			}
		}
	}
	src.WriteString("}\n")
	perm := rng.Perm(n)
	ins := perm[:2+rng.IntN(min(n-1, 3))]
	var inputs, pairs []string
	for i, s := range ins {
		inputs = append(inputs, fmt.Sprintf("s%d", s))
		if i > 0 {
			pairs = append(pairs, fmt.Sprintf("s%d ~ s%d", ins[i-1], s))
		}
	}
	fmt.Fprintf(&src, "inputs %s\nneighbours %s\n", strings.Join(inputs, ", "), strings.Join(pairs, ", "))
	src.WriteString([]string{"", "outputs var x\n", "outputs labels A, C\n"}[rng.IntN(3)])
	src.WriteString(`observe A, B
check dp(eps = ln(2))
check dp(eps = ln(2), delta = 1/10)
query eps(delta = 0)
query eps(delta = 1/10)
query delta(eps = ln(2))
query delta(eps = 1/2)
query profile
query eps(delta = 1/10) over traces(3)
query delta(eps = ln(2)) over traces(2)
check P>=1/2[F A]
check D{ln(2), 0}[F<=2 B] & (x >= 1 | P>0[X x = 2])
query P=?[F A]
query P=?[X X B]
query P=?[!B U A]
query P=?[G<=3 !C]
query D{?, 0}[F A]
query D{?, 1/10}[X (x = 1 & X A)]
query D{ln(2), ?}[X A]
`)
	return src.String()
}

// TestLumpingRandomChains: on random chains, every statement's verdict,
// exact value, witness and counterexample are the same with lumping as
// without.
func TestLumpingRandomChains(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 1))
	shrunk := 0
	const runs = 300
	for i := range runs {
		src := randomSpec(rng)
		var res [2]*dpcheck.Result
		var errs [2]error
		for j, lump := range []bool{false, true} {
			cfg := dpcheck.Config{Lump: lump}
			p, err := cfg.Load(context.Background(), "random.dp", src)
			if err != nil {
				t.Fatalf("chain %d does not load: %v\n%s", i, err, src)
			}
			res[j], errs[j] = cfg.Run(context.Background(), p)
		}
		if errs[0] != nil || errs[1] != nil {
			t.Fatalf("chain %d: %v; lumped: %v", i, errs[0], errs[1])
		}
		if diff := cmp.Diff(res[0].Statements, res[1].Statements, sameOutcomes); diff != "" {
			t.Fatalf("chain %d: outcomes differ (-plain +lumped):\n%s\n%s", i, diff, src)
		}
		for _, l := range res[1].Lumped {
			if l.After.States < l.Before.States {
				shrunk++
				break
			}
		}
	}
	if shrunk < runs/2 {
		t.Errorf("only %d of %d random chains shrank: the generator makes too few bisimilar states", shrunk, runs)
	}
}
