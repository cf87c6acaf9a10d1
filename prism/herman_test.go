package prism_test

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/property"
)

// herman writes Herman's self-stabilising ring of n processes (n odd) as
// a PRISM DTMC: process i holds a bit x_i and a token when x_i equals its
// left neighbour's; on each synchronous step a process with a token flips
// a fair coin, the others copy their left neighbour. Every state is
// initial; "stable" is one token left; the reward counts steps.
func herman(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "dtmc\n\nmodule process1\n  x1 : [0..1];\n")
	fmt.Fprintf(&b, "  [step] (x1=x%d) -> 1/2 : (x1'=0) + 1/2 : (x1'=1);\n", n)
	fmt.Fprintf(&b, "  [step] !(x1=x%d) -> (x1'=x%d);\nendmodule\n\n", n, n)
	for i := 2; i <= n; i++ {
		fmt.Fprintf(&b, "module process%d = process1 [x1=x%d, x%d=x%d] endmodule\n", i, i, n, i-1)
	}
	b.WriteString("\ninit true endinit\n\nformula num_tokens = ")
	for i := 1; i <= n; i++ {
		left := i - 1
		if i == 1 {
			left = n
		}
		if i > 1 {
			b.WriteString(" + ")
		}
		fmt.Fprintf(&b, "(x%d=x%d?1:0)", i, left)
	}
	b.WriteString(";\nlabel \"stable\" = num_tokens=1;\n\nrewards \"steps\"\n  true : 1;\nendrewards\n")
	return b.String()
}

// tokens returns the positions of the tokens of a state of herman(n).
func tokens(n int, bit func(i int) int64) []int {
	var out []int
	for i := 1; i <= n; i++ {
		left := i - 1
		if i == 1 {
			left = n
		}
		if bit(i) == bit(left) {
			out = append(out, i)
		}
	}
	return out
}

// TestHerman checks Herman's ring against closed forms: 2ⁿ states and
// 3ⁿ + 1 transitions (a state with t tokens has 2ᵗ successors, and
// Σ 2^tokens is the trace of [[2, 1], [1, 2]]ⁿ); stabilisation is
// certain; and from three tokens at distances a, b, c the expected number
// of steps is 4abc/n (McIver and Morgan, "An elementary proof that
// Herman's ring is Θ(N²)"), at every such state. The expected times are
// linear systems whose elimination fills in: they are solved by p-adic
// lifting, checked exactly here.
func TestHerman(t *testing.T) {
	for _, n := range []int{3, 5, 7, 9} {
		res := mustCheck(t, herman(n), "P>=1 [ F \"stable\" ]\nR=? [ F \"stable\" ]\nR=? [ F \"stable\" {num_tokens=3}{max} ]\n", nil)
		pow3 := int(new(big.Int).Exp(big.NewInt(3), big.NewInt(int64(n)), nil).Int64())
		size(t, res, 1<<n, pow3+1, 1<<n)
		if v := res.Statements[0].Value(); v != "holds" {
			t.Errorf("n = %d: P>=1 [ F \"stable\" ] %s", n, v)
		}
		rw, ok := res.Statements[1].(*property.RewardOutcome)
		if !ok || rw.Err() != nil || len(rw.Values) != 1<<n {
			t.Fatalf("n = %d: R=? [ F \"stable\" ]: %T %v", n, res.Statements[1], res.Statements[1].Err())
		}
		three, most := 0, int64(0)
		for _, v := range rw.Values {
			pos := tokens(n, func(i int) int64 { x, _ := v.State.Valuation.Get(fmt.Sprintf("x%d", i)); return x })
			switch len(pos) {
			case 1:
				if v.Value.Sign() != 0 {
					t.Errorf("n = %d: %s is stable, and its expected time is %s", n, v.State, v.Value.RatString())
				}
			case 3:
				a, b := int64(pos[1]-pos[0]), int64(pos[2]-pos[1])
				abc := a * b * (int64(n) - a - b)
				most = max(most, abc)
				if want := big.NewRat(4*abc, int64(n)); v.Value.Cmp(want) != 0 {
					t.Errorf("n = %d: from %s (tokens at %v) %s steps, want 4abc/n = %s", n, v.State, pos, v.Value.RatString(), want.RatString())
				}
				three++
			}
		}
		if three == 0 && n > 3 {
			t.Errorf("n = %d: no state with three tokens", n)
		}
		if want := big.NewRat(4*most, int64(n)).RatString(); res.Statements[2].Value() != want && n > 3 {
			t.Errorf("n = %d: the most from three tokens is %s, want %s", n, res.Statements[2].Value(), want)
		}
	}
}

// TestHermanAsMDP: the same ring read as an MDP (one choice per state:
// the synchronised step) gives Rmin = Rmax = 4abc/n from three tokens,
// through policy iteration, whose linear systems are lifted as a chain's.
func TestHermanAsMDP(t *testing.T) {
	for _, n := range []int{7, 9} {
		m := strings.Replace(herman(n), "dtmc", "mdp", 1)
		res := mustCheck(t, m, "Rmin=? [ F \"stable\" ]\nRmax=? [ F \"stable\" ]\nfilter(min, Pmin=? [ F \"stable\" ])\n", nil)
		for si, o := range res.Statements[:2] {
			rw, ok := o.(*property.RewardOutcome)
			if !ok || o.Err() != nil || len(rw.Values) != 1<<n {
				t.Fatalf("n = %d, statement %d: %T %v", n, si, o, o.Err())
			}
			for _, v := range rw.Values {
				pos := tokens(n, func(i int) int64 { x, _ := v.State.Valuation.Get(fmt.Sprintf("x%d", i)); return x })
				if len(pos) != 3 {
					continue
				}
				a, b := int64(pos[1]-pos[0]), int64(pos[2]-pos[1])
				if want := big.NewRat(4*a*b*(int64(n)-a-b), int64(n)); v.Value.Cmp(want) != 0 {
					t.Errorf("n = %d, %s: from %s %s steps, want %s", n, o.Statement().Head().Text, v.State, v.Value.RatString(), want.RatString())
				}
			}
		}
		if v := res.Statements[2].Value(); v != "1" {
			t.Errorf("n = %d: the least Pmin=? [ F \"stable\" ] is %s, want 1", n, v)
		}
	}
}

// BenchmarkHerman reads, explores and checks Herman's ring of 11 and 13
// processes: P>=1 [F "stable"] (the graph) and the largest expected time
// to stabilise from three tokens (a linear system of 924, resp. 3 432
// states per block, solved exactly by p-adic lifting).
//
//	go test ./prism -run '^$' -bench Herman -benchmem -benchtime 1x
func BenchmarkHerman(b *testing.B) {
	for _, n := range []int{11, 13} {
		for _, prop := range []string{`P>=1 [ F "stable" ]`, `R=? [ F "stable" {num_tokens=3}{max} ]`} {
			name := fmt.Sprintf("n=%d/%s", n, map[bool]string{true: "P", false: "R"}[prop[0] == 'P'])
			b.Run(name, func(b *testing.B) {
				fs := files(map[string]string{"m.pm": herman(n), "p.pctl": prop + "\n"})
				for b.Loop() {
					res, err := fs.CheckPRISM(context.Background(), "m.pm", "p.pctl", nil)
					if err != nil || res.Statements[0].Err() != nil {
						b.Fatal(err, res.Statements[0].Err())
					}
				}
			})
		}
	}
}
