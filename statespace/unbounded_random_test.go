package statespace_test

import (
	"fmt"
	"math/big"
	"math/rand"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/model"
)

// randomUnbounded writes a random straight-line program over two
// unbounded integers x1, x2 — draws of untruncated geometric noise around
// the input, a constant or the other variable, shifts, negations, copies,
// and comparisons with
// each other or with the input that set a flag — twice: with x1, x2 : int
// (exact), and with every draw clamped to [c − w, c + w] around its centre
// c and the variables given a range wide enough for every shift. The
// second is explored state by state, the first summed in closed form; a
// run of the two differs only when a draw leaves its window, so every
// output probability differs by at most bound, the sum over the draws of
// Pr[|Z| > w] = 2α^(w+1)/(1+α).
func randomUnbounded(r *rand.Rand, w int) (exact, clamped string, bound *big.Rat) {
	alphas := []string{"1/2", "1/3", "2/5"}
	steps := 3 + r.Intn(5)
	var cmds []string
	var flags []string
	bound = new(big.Rat)
	drawn := [2]bool{}
	around := false      // a draw around the other variable was written
	alpha := [2]string{} // the α of each variable's last draw
	for j := 0; j < steps; j++ {
		k := r.Intn(2) + 1
		other := 3 - k
		d := r.Intn(5) - 2
		next := fmt.Sprintf("(s' = %d)", j+1)
		op := r.Intn(5)
		if !drawn[k-1] {
			op = 0 // draw before use
		}
		switch op {
		case 0:
			a := alphas[r.Intn(len(alphas))]
			c := []string{"a", "0", "1", "a + 1"}[r.Intn(4)]
			if drawn[other-1] && !around && r.Intn(2) == 0 {
				// once a program: around the other variable, with another
				// α than its noise's (the same gives terms z·α^z)
				c, around = []string{"x%d", "x%d + 1", "-x%d", "-x%d - 2"}[r.Intn(4)], true
				c = fmt.Sprintf(c, other)
				for a == alpha[other-1] {
					a = alphas[r.Intn(len(alphas))]
				}
			}
			alpha[k-1] = a
			cmds = append(cmds, fmt.Sprintf("[] s = %d -> (x%d' ~ geometric(%s, %s%%s)) & %s;", j, k, a, c, next))
			drawn[k-1] = true
			alpha, _ := new(big.Rat).SetString(a)
			tail := new(big.Rat).Quo(new(big.Rat).Mul(big.NewRat(2, 1), pow(alpha, w+1)), new(big.Rat).Add(big.NewRat(1, 1), alpha))
			bound.Add(bound, tail)
		case 1:
			sign := []string{"", "-"}[r.Intn(2)]
			cmds = append(cmds, fmt.Sprintf("[] s = %d -> (x%d' = %sx%d + %d) & %s;", j, k, sign, k, d, next))
		case 2:
			if !drawn[other-1] {
				cmds = append(cmds, fmt.Sprintf("[] s = %d -> %s;", j, next))
				continue
			}
			sign := []string{"", "-"}[r.Intn(2)]
			cmds = append(cmds, fmt.Sprintf("[] s = %d -> (x%d' = %sx%d + %d) & %s;", j, k, sign, other, d, next))
		default:
			f := fmt.Sprintf("f%d", len(flags)+1)
			flags = append(flags, f)
			rhs := fmt.Sprintf("x%d + %d", other, d)
			if !drawn[other-1] || r.Intn(3) == 0 {
				rhs = fmt.Sprintf("a + %d", d)
			}
			op := []string{">=", ">", "<=", "=", "!="}[r.Intn(5)]
			cmds = append(cmds,
				fmt.Sprintf("[] s = %d & x%d %s %s -> (%s' = true) & %s;", j, k, op, rhs, f, next),
				fmt.Sprintf("[] s = %d & !(x%d %s %s) -> %s;", j, k, op, rhs, next))
		}
	}
	if len(flags) == 0 {
		flags = append(flags, "f1")
		cmds = append(cmds, fmt.Sprintf("[] s = %d & x1 >= a -> (f1' = true) & (s' = %d);", steps, steps+1),
			fmt.Sprintf("[] s = %d & x1 < a -> (s' = %d);", steps, steps+1))
		steps++
	}
	write := func(decl, clamp func(c string) string) string {
		var b strings.Builder
		fmt.Fprintf(&b, "module m\n  input a : [0..1];\n  x1 : %s;\n  x2 : %s;\n  s : [0..%d] init 0;\n", decl(""), decl(""), steps)
		for _, f := range flags {
			fmt.Fprintf(&b, "  %s : bool init false;\n", f)
		}
		for _, c := range cmds {
			if strings.Contains(c, "%s") {
				centre := c[strings.Index(c, "geometric(")+len("geometric("):]
				centre = centre[strings.Index(centre, ", ")+2 : strings.Index(centre, "%s")]
				c = fmt.Sprintf(c, clamp(centre))
			}
			fmt.Fprintf(&b, "  %s\n", c)
		}
		fmt.Fprintf(&b, "endmodule\noutputs var %s\n", strings.Join(flags, ", "))
		return b.String()
	}
	rng := 2*w + 4*steps + 8 // room for a draw around a shifted draw
	exact = write(func(string) string { return "int" }, func(string) string { return "" })
	clamped = write(func(string) string { return fmt.Sprintf("[%d..%d] init 0", -rng, rng) },
		func(c string) string { return fmt.Sprintf(", %s - %d, %s + %d", c, w, c, w) })
	return exact, clamped, bound
}

func pow(x *big.Rat, n int) *big.Rat {
	p := big.NewRat(1, 1)
	for range n {
		p.Mul(p, x)
	}
	return p
}

// TestUnboundedRandomPrograms: random programs in the class, each summed
// exactly and explored with its draws clamped to a window, agree within
// the bound on what the window changes; and the window does change
// something, so the comparison can fail.
func TestUnboundedRandomPrograms(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	const w = 14
	changed := 0
	for trial := range 150 {
		ex, cl, bound := randomUnbounded(r, w)
		exact := outputsOf(t, ex)
		clamped := outputsOf(t, cl)
		for in, row := range exact {
			for out, p := range row {
				q := clamped[in][out]
				if q == nil {
					q = new(big.Rat)
				}
				d := new(big.Rat).Sub(p, q)
				if d.Sign() != 0 {
					changed++
				}
				if d.Abs(d).Cmp(bound) > 0 {
					t.Fatalf("trial %d, input %s, output %s: exact %s, clamped %s, bound %s\n%s", trial, in, out, p.FloatString(12), q.FloatString(12), bound.FloatString(12), ex)
				}
			}
			for out := range clamped[in] {
				if row[out] == nil && clamped[in][out].Cmp(bound) > 0 {
					t.Fatalf("trial %d, input %s: output %s has probability %s only when clamped\n%s", trial, in, out, clamped[in][out].FloatString(12), ex)
				}
			}
		}
	}
	if changed == 0 {
		t.Error("clamping never changed a probability: the comparison tells nothing")
	}
}

// outputsOf builds a module program and returns, for each input, its
// output distribution keyed by the observed flags.
func outputsOf(t *testing.T, src string) map[string]map[string]*big.Rat {
	t.Helper()
	m := modules(t, src)
	c := build(t, m, model.Limits{})
	out := map[string]map[string]*big.Rat{}
	for _, s := range c.Inputs() {
		a, _ := c.Value(s, "a")
		key := fmt.Sprint(a)
		row := map[string]*big.Rat{}
		// Follow the chain to its absorbing states.
		dist := map[int]*big.Rat{s: big.NewRat(1, 1)}
		for range 64 {
			next := map[int]*big.Rat{}
			moved := false
			for x, p := range dist {
				to, ps := c.Row(x)
				if len(to) == 0 || c.IsAbsorbing(x) {
					add(next, x, p)
					continue
				}
				moved = true
				for i, y := range to {
					add(next, y, new(big.Rat).Mul(p, ps[i]))
				}
			}
			dist = next
			if !moved {
				break
			}
		}
		for x, p := range dist {
			var parts []string
			for _, v := range c.Valuation(x) {
				if strings.HasPrefix(v.Name, "f") {
					parts = append(parts, fmt.Sprintf("%s=%d", v.Name, v.Value))
				}
			}
			k := strings.Join(parts, ",")
			if row[k] == nil {
				row[k] = new(big.Rat)
			}
			row[k].Add(row[k], p)
		}
		out[key] = row
	}
	return out
}

func add(m map[int]*big.Rat, k int, p *big.Rat) {
	if m[k] == nil {
		m[k] = new(big.Rat)
	}
	m[k].Add(m[k], p)
}
