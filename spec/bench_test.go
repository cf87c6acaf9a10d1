package spec_test

import (
	"context"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/spec"
)

// explicitGeometric writes the truncated 1/2-geometric mechanism over
// {0..n} as an explicit chain — what a user who generates models from
// their own code writes — with the statements of a full check: dp that
// holds, the tight ε with its witness and a violated dp with its
// counterexample. At n = 500 it is 16 MB of .dp, at n = 1000 112 MB (its
// denominators have up to 302 digits).
func explicitGeometric(tb testing.TB, n int) string {
	tb.Helper()
	m, err := builder.TruncatedGeometric(big.NewRat(1, 2), n)
	if err != nil {
		tb.Fatal(err)
	}
	c := m.Chain
	var b strings.Builder
	b.WriteString("// the truncated 1/2-geometric mechanism, written out\nchain {\n")
	for s := range c.NumStates() {
		v := c.Valuation(s)[0]
		fmt.Fprintf(&b, "  state %s (%s = %d) [%s]\n", c.Name(s), v.Name, v.Value, c.Labels(s)[0])
	}
	for s := range c.NumStates() {
		if c.IsAbsorbing(s) {
			continue
		}
		to, p := c.Row(s)
		b.WriteString("  " + c.Name(s) + " ->")
		for i := range to {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(" " + c.Name(to[i]) + " : " + p[i].RatString())
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\ninputs where in >= 0\nneighbours |in - in'| <= 1\n" +
		"check dp(eps = ln(2))\nquery eps(delta = 0) expect ln(2)\ncheck dp(eps = ln(3/2)) expect violated\n")
	return b.String()
}

// symbolicGeometric writes the same chain with every probability an
// expression over the constant a = 1/2, as a generator that keeps α
// symbolic writes it: a^k/(1 + a), (1 - a)/(1 + a)*a^|k-l|, a^(n-k)/(1 + a).
func symbolicGeometric(n int) string {
	var b strings.Builder
	b.WriteString("const a = 1/2\nchain {\n")
	for k := 0; k <= n; k++ {
		fmt.Fprintf(&b, "  state s%d (in = %d) [in_%d]\n", k, k, k)
	}
	for l := 0; l <= n; l++ {
		fmt.Fprintf(&b, "  state t%d (out = %d) [out_%d]\n", l, l, l)
	}
	for k := 0; k <= n; k++ {
		fmt.Fprintf(&b, "  s%d ->", k)
		for l := 0; l <= n; l++ {
			if l > 0 {
				b.WriteByte(',')
			}
			switch {
			case l == 0:
				fmt.Fprintf(&b, " t0 : a^%d/(1 + a)", k)
			case l == n:
				fmt.Fprintf(&b, " t%d : a^%d/(1 + a)", l, n-k)
			default:
				fmt.Fprintf(&b, " t%d : (1 - a)/(1 + a)*a^%d", l, max(k-l, l-k))
			}
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\ninputs where in >= 0\nneighbours |in - in'| <= 1\n" +
		"check dp(eps = ln(2))\nquery eps(delta = 0) expect ln(2)\ncheck dp(eps = ln(3/2)) expect violated\n")
	return b.String()
}

// flatChain writes a long, thin chain as a generator of models writes
// it: n states with two variables and a label each, every row two decimal
// probabilities into two absorbing states.
func flatChain(n int) string {
	var b strings.Builder
	b.WriteString("chain {\n")
	for i := range n {
		fmt.Fprintf(&b, "  state w%d (x = %d, side = %d) [step]\n", i, i, i%2)
	}
	b.WriteString("  state lo (x = -1) [out_lo]\n  state hi (x = -2) [out_hi]\n")
	for i := range n {
		p, q := "0.25", "0.75"
		if i == 0 {
			p, q = "0.5", "0.5"
		}
		fmt.Fprintf(&b, "  w%d -> lo : %s, hi : %s\n", i, p, q)
	}
	b.WriteString("}\ninputs w0, w1\nneighbours w0 ~ w1\nquery eps(delta = 0) expect ln(2)\n")
	return b.String()
}

// benchInputs are the benchmarks' inputs by name, each generated when it
// is needed.
func benchInputs(tb testing.TB) []struct {
	name string
	src  func() string
} {
	type input = struct {
		name string
		src  func() string
	}
	var in []input
	for _, n := range []int{300, 500, 1000} {
		in = append(in, input{fmt.Sprintf("geometric/n=%d", n), func() string { return explicitGeometric(tb, n) }})
	}
	for _, n := range []int{300, 500} {
		in = append(in, input{fmt.Sprintf("symbolic/n=%d", n), func() string { return symbolicGeometric(n) }})
	}
	return append(in, input{"flat/states=20000", func() string { return flatChain(20_000) }})
}

// BenchmarkLoadExplicit measures the .dp front end alone on explicit
// chains (spec.Load: scan, parse, check, build the chain); MB/s is the
// rate at which it reads the source.
//
//	go test ./spec -run '^$' -bench LoadExplicit -benchmem -benchtime 3x
func BenchmarkLoadExplicit(b *testing.B) {
	for _, in := range benchInputs(b) {
		b.Run(in.name, func(b *testing.B) {
			src := in.src()
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if _, err := (spec.Options{}).Load(context.Background(), "in.dp", src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCheckExplicit is the target: load an explicit chain and
// run its checks (dpcheck.CheckSource: load, prepare, evaluate). For the
// 1/2-geometric mechanism that is the full check — dp that holds, the
// tight ε with its witness, a violated dp with its counterexample.
//
//	go test ./spec -run '^$' -bench CheckExplicit -benchmem -benchtime 1x
func BenchmarkCheckExplicit(b *testing.B) {
	for _, in := range benchInputs(b) {
		b.Run(in.name, func(b *testing.B) {
			src := in.src()
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				res, err := dpcheck.CheckSource(context.Background(), "in.dp", src)
				if err != nil {
					b.Fatal(err)
				}
				if !res.Pass() {
					b.Fatal("a statement failed")
				}
			}
		})
	}
}

// prismExplicit writes the truncated 1/2-geometric mechanism over {0..n}
// as PRISM exports a DTMC with -exact: m.tra, m.lab (inputs "init", the
// outputs "deadlock" with their self-loops) and m.sta (k, and side 0 for
// inputs, 1 for outputs); and a .dp file with the full check.
func prismExplicit(tb testing.TB, n int) map[string]string {
	tb.Helper()
	m, err := builder.TruncatedGeometric(big.NewRat(1, 2), n)
	if err != nil {
		tb.Fatal(err)
	}
	c := m.Chain
	var tra, lab, sta strings.Builder
	fmt.Fprintf(&tra, "%d %d\n", c.NumStates(), c.NumTransitions())
	lab.WriteString("0=\"init\" 1=\"deadlock\"\n")
	sta.WriteString("(k,side)\n")
	for s := range c.NumStates() {
		to, p := c.Row(s)
		for i := range to {
			fmt.Fprintf(&tra, "%d %d %s\n", s, to[i], p[i].RatString())
		}
		side, label := 0, 0
		if c.IsAbsorbing(s) {
			side, label = 1, 1
		}
		fmt.Fprintf(&lab, "%d: %d\n", s, label)
		fmt.Fprintf(&sta, "%d:(%d,%d)\n", s, s-side*(n+1), side)
	}
	return map[string]string{"m.tra": tra.String(), "m.lab": lab.String(), "m.sta": sta.String(),
		"m.dp": "model explicit(\"m.tra\", \"m.lab\", \"m.sta\")\nneighbours |k - k'| <= 1\n" +
			"check dp(eps = ln(2))\nquery eps(delta = 0) expect ln(2)\ncheck dp(eps = ln(3/2)) expect violated\n"}
}

// BenchmarkExplicitFiles: the 1/2-geometric mechanism from PRISM's
// explicit files, loaded (spec.Load; MB/s counts the three files) and
// fully checked (dpcheck.CheckSource).
//
//	go test ./spec -run '^$' -bench ExplicitFiles -benchmem -benchtime 3x
func BenchmarkExplicitFiles(b *testing.B) {
	for _, n := range []int{500, 1000} {
		b.Run(fmt.Sprintf("geometric/n=%d", n), func(b *testing.B) {
			files := prismExplicit(b, n)
			size := len(files["m.tra"]) + len(files["m.lab"]) + len(files["m.sta"])
			read := func(path string) (string, error) { return files[path], nil }
			b.Run("load", func(b *testing.B) {
				b.SetBytes(int64(size))
				for b.Loop() {
					if _, err := (spec.Options{ReadFile: read}).Load(context.Background(), "m.dp", files["m.dp"]); err != nil {
						b.Fatal(err)
					}
				}
			})
			cfg := dpcheck.Config{ReadFile: read}
			b.Run("check", func(b *testing.B) {
				b.SetBytes(int64(size))
				for b.Loop() {
					res, err := cfg.CheckSource(context.Background(), "m.dp", files["m.dp"])
					if err != nil {
						b.Fatal(err)
					}
					if !res.Pass() {
						b.Fatal("a statement failed")
					}
				}
			})
		})
	}
}

// TestWriteBenchInputs writes the benchmarks' inputs to the directory
// $DPCHECK_BENCH_DIR (geometric1000.dp, …, and m.dp with PRISM's explicit
// files m.tra, m.lab and m.sta of the geometric mechanism at n = 1000), to
// measure the command on them; without it, it does nothing.
//
//	DPCHECK_BENCH_DIR=/tmp go test ./spec -run WriteBenchInputs
func TestWriteBenchInputs(t *testing.T) {
	dir := os.Getenv("DPCHECK_BENCH_DIR")
	if dir == "" {
		t.Skip("DPCHECK_BENCH_DIR is not set")
	}
	files := map[string]string{}
	for _, in := range benchInputs(t) {
		files[strings.NewReplacer("/n=", "", "/states=", "").Replace(in.name)+".dp"] = in.src()
	}
	for name, src := range prismExplicit(t, 1000) { // m.dp reads m.tra, m.lab, m.sta
		files[name] = src
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
