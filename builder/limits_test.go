package builder_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/model"
)

// call checks and builds a builder call written as in a spec,
// "laplace_decision(alpha = 1/2, k = 1000000, hi = 1)", under l: the
// arguments are named, a model argument is itself a call. The returned def
// and args are those of the outer call.
func call(t *testing.T, src string, l model.Limits) (*builder.Def, *builder.Args, *model.Mechanism, error) {
	t.Helper()
	return callContext(t, context.Background(), src, l)
}

// callContext is call with the outer build under ctx; model arguments are
// built under context.Background().
func callContext(t *testing.T, ctx context.Context, src string, l model.Limits) (*builder.Def, *builder.Args, *model.Mechanism, error) {
	t.Helper()
	open := strings.IndexByte(src, '(')
	if open < 0 || !strings.HasSuffix(src, ")") {
		t.Fatalf("bad call %q", src)
	}
	d, ok := builder.Lookup(strings.TrimSpace(src[:open]))
	if !ok {
		t.Fatalf("%q: unknown builder", src)
	}
	a := builder.NewArgs()
	for _, arg := range splitArgs(src[open+1 : len(src)-1]) {
		name, value, ok := strings.Cut(arg, "=")
		if !ok {
			t.Fatalf("%q: argument %q is not named", src, arg)
		}
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		p, ok := d.Param(name)
		if !ok {
			t.Fatalf("%q: unknown parameter %s", src, name)
		}
		switch p.Kind {
		case builder.Rational:
			x, ok := new(big.Rat).SetString(value)
			if !ok {
				t.Fatalf("%q: bad rational %q", src, value)
			}
			a.SetRat(name, x)
		case builder.Integer:
			n, err := strconv.Atoi(value)
			if err != nil {
				t.Fatalf("%q: %v", src, err)
			}
			a.SetInt(name, n)
		case builder.Choice:
			a.SetChoice(name, strings.Trim(value, `"`))
		case builder.Model:
			_, _, m, err := call(t, value, l)
			if err != nil {
				t.Fatalf("%q: %v", value, err)
			}
			a.SetModel(name, m)
		}
	}
	if err := d.WithDefaults(a); err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	if err := d.CheckSize(a, l); err != nil {
		return d, a, nil, err
	}
	m, err := d.Build(ctx, a)
	return d, a, m, err
}

// splitArgs splits at the commas outside parentheses and quotes.
func splitArgs(s string) []string {
	var out []string
	depth, quoted, start := 0, false, 0
	for i, c := range s {
		switch {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == ',' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	if strings.TrimSpace(s[start:]) != "" {
		out = append(out, s[start:])
	}
	return out
}

// chainBits is the total size in bits of the distinct probabilities
// (distinct *big.Rat values in memory) of c, and their number.
func chainBits(c *chain.Chain) (bits float64, n int) {
	seen := map[*big.Rat]bool{}
	for s := range c.NumStates() {
		_, p := c.Row(s)
		for _, x := range p {
			if !seen[x] {
				seen[x] = true
				bits += float64(x.Num().BitLen() + x.Denom().BitLen())
			}
		}
	}
	return bits, len(seen)
}

// mechanismBits is chainBits of m's chain and, for an MDP, of its
// choices too.
func mechanismBits(m *model.Mechanism) (bits float64, n int) {
	bits, n = chainBits(m.Chain)
	if m.MDP == nil {
		return bits, n
	}
	seen := map[*big.Rat]bool{}
	for _, chs := range m.MDP.Choices {
		for _, ch := range chs {
			for _, x := range ch.P {
				if !seen[x] {
					seen[x] = true
					bits += float64(x.Num().BitLen() + x.Denom().BitLen())
				}
			}
		}
	}
	return bits, n + len(seen)
}

// TestLimitMessages: the oversized models are refused by the
// estimate, before anything is built, with messages that name the limit
// and not a command-line flag; laplace_decision at k = 10^6 is small
// (four probabilities of about 10^6 bits) and builds at once.
func TestLimitMessages(t *testing.T) {
	tests := []struct {
		call  string
		limit model.LimitKind // "" for a model that builds
		want  string
	}{
		{"laplace_decision(alpha = 1/2, k = 1000000, hi = 1)", "", ""},
		{"laplace_decision(alpha = 1/2, k = 1000000000, hi = 1)", model.LimitBits,
			"laplace_decision would need probabilities of about 6,000,000,014 bits in all; the limit is 4,294,967,296 bits"},
		{"cutoff_decision(alpha = 1/2, m = 1000000000, hi = 1)", model.LimitBits,
			"cutoff_decision would need probabilities of about 6,000,000,008 bits in all; the limit is 4,294,967,296 bits"},
		{"laplace_decision(alpha = 999/1000, k = 100000, hi = 1000000)", model.LimitBits,
			"laplace_decision would need probabilities of about 16,343,321,356,799 bits in all; the limit is 4,294,967,296 bits"},
		{"truncated_geometric(alpha = 1/2, n = 5000)", model.LimitTransitions,
			"truncated_geometric would have about 25,015,002 transitions; the limit is 10,000,000 transitions"},
		{"above_threshold(n = 100, k = 10000)", model.LimitStates,
			"above_threshold would have about 102,030,202 states; the limit is 10,000,000 states"},
		{"compose(k = 1000000, model = survey())", model.LimitStates,
			"compose would have more than 10^308 states; the limit is 10,000,000 states"},
		// A power of a rational with 1000-digit numerator and denominator.
		{"truncated_geometric(alpha = " + strings.Repeat("9", 1000) + "/1" + strings.Repeat("0", 1000) + ", n = 1000)", model.LimitBits,
			"truncated_geometric would need probabilities of about 6,663,807,052 bits in all; the limit is 4,294,967,296 bits"},
	}
	for _, tt := range tests {
		start := time.Now()
		d, a, m, err := call(t, tt.call, model.Limits{})
		elapsed := time.Since(start)
		if tt.limit == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.call, err)
				continue
			}
			if elapsed > 5*time.Second {
				t.Errorf("%s: built in %v", tt.call, elapsed)
			}
			got, _ := chainBits(m.Chain)
			if est := d.Bits(a); got > est {
				t.Errorf("%s: %g bits, estimate %g", tt.call, got, est)
			}
			continue
		}
		var le *model.LimitError
		if !errors.As(err, &le) {
			t.Errorf("%s: error %v (%T), want a *model.LimitError", tt.call, err, err)
			continue
		}
		if got := err.Error(); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.call, got, tt.want)
		}
		if le.Limit != tt.limit || le.Builder != d.Name {
			t.Errorf("%s: limit %q of builder %q, want %q of %q", tt.call, le.Limit, le.Builder, tt.limit, d.Name)
		}
		if m != nil {
			t.Errorf("%s: built although refused", tt.call)
		}
	}
}

// TestLimitsWithDefaults: zero fields are DefaultLimits', others are kept,
// and CheckSize applies the defaults itself.
func TestLimitsWithDefaults(t *testing.T) {
	if got := (model.Limits{}).WithDefaults(); got != model.DefaultLimits {
		t.Errorf("zero limits: %+v, want %+v", got, model.DefaultLimits)
	}
	l := model.Limits{MaxStates: 7, MaxBits: -1}.WithDefaults()
	want := model.Limits{MaxStates: 7, MaxTransitions: model.DefaultLimits.MaxTransitions, MaxBits: model.DefaultLimits.MaxBits, MaxMemory: model.DefaultLimits.MaxMemory}
	if l != want {
		t.Errorf("partial limits: %+v, want %+v", l, want)
	}
	// A limit that is set is used; an unset one is the default.
	const src = "laplace_decision(alpha = 1/2, k = 1000000, hi = 1)"
	_, _, _, err := call(t, src, model.Limits{MaxBits: 1_000_000})
	if want := "laplace_decision would need probabilities of about 6,000,011 bits in all; the limit is 1,000,000 bits"; err == nil || err.Error() != want {
		t.Errorf("MaxBits 10^6: %v, want %q", err, want)
	}
	if _, _, _, err := call(t, src, model.Limits{MaxStates: 4, MaxTransitions: 6}); err != nil {
		t.Errorf("MaxBits unset: %v", err)
	}
	if _, _, _, err := call(t, src, model.Limits{MaxStates: 3}); err == nil || err.Error() != "laplace_decision would have about 4 states; the limit is 3 states" {
		t.Errorf("MaxStates 3: %v", err)
	}
}

// TestLimitErrorText covers the message of every limit, including an
// estimate beyond float64.
func TestLimitErrorText(t *testing.T) {
	tests := []struct {
		err  model.LimitError
		want string
	}{
		{model.LimitError{Builder: "b", Limit: model.LimitStates, Estimate: 12345678, Max: 1000},
			"b would have about 12,345,678 states; the limit is 1,000 states"},
		{model.LimitError{Builder: "b", Limit: model.LimitTransitions, Estimate: 1001, Max: 1000},
			"b would have about 1,001 transitions; the limit is 1,000 transitions"},
		{model.LimitError{Builder: "b", Limit: model.LimitBits, Estimate: math.Inf(1), Max: 1 << 32},
			"b would need probabilities of more than 10^308 bits in all; the limit is 4,294,967,296 bits"},
		{model.LimitError{Builder: "b", Limit: model.LimitBits, Estimate: 2e15, Max: 1 << 32},
			"b would need probabilities of about 2e+15 bits in all; the limit is 4,294,967,296 bits"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}

// TestModelsWithinLimits: every builder call in models/*.dp passes the
// default limits and builds, with its bit estimate above the truth.
func TestModelsWithinLimits(t *testing.T) {
	files, err := filepath.Glob("../models/*.dp")
	if err != nil || len(files) == 0 {
		t.Fatalf("no models: %v", err)
	}
	var names []string
	for _, d := range builder.Catalog() {
		names = append(names, regexp.QuoteMeta(d.Name))
	}
	start := regexp.MustCompile(`\b(` + strings.Join(names, "|") + `)\(`)
	calls := map[string]bool{}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if regexp.MustCompile(`(?m)^param `).Match(src) {
			continue // a builder call for every parameter value (package param builds it)
		}
		for _, line := range strings.Split(string(src), "\n") {
			line, _, _ = strings.Cut(line, "//")
			for _, loc := range start.FindAllStringIndex(line, -1) {
				depth := 0
				for i := loc[1] - 1; i < len(line); i++ {
					if line[i] == '(' {
						depth++
					} else if line[i] == ')' {
						if depth--; depth == 0 {
							calls[line[loc[0]:i+1]] = true
							break
						}
					}
				}
			}
		}
	}
	if len(calls) < 20 {
		t.Errorf("found only %d builder calls in models/", len(calls))
	}
	named := regexp.MustCompile(`=\s*[A-Za-z_]\w*\s*[,)]`)
	for c := range calls {
		if named.MatchString(c) {
			continue // an argument is a constant of its file (geometric_sweep.dp's n = K)
		}
		d, a, m, err := call(t, c, model.Limits{})
		var le *model.LimitError
		if err != nil && d.Composition != nil && errors.As(err, &le) {
			// Many runs: their product chain is not built for dp, eps,
			// delta and profile, and the parameters are fine.
			if err := d.CheckSize(a, model.Limits{}); err != nil {
				t.Errorf("%s: %v", c, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c, err)
			continue
		}
		if got, _ := mechanismBits(m); d.Name != "compose" && got > d.Bits(a) {
			t.Errorf("%s: %g bits, estimate %g", c, got, d.Bits(a))
		}
	}
}

// TestBenchmarksWithinLimits: the largest models of verify's benchmarks
// and the docs' examples pass the default limits (checked, not built).
func TestBenchmarksWithinLimits(t *testing.T) {
	set := func(d *builder.Def, rats map[string]string, ints map[string]int) *builder.Args {
		a := builder.NewArgs()
		for k, v := range rats {
			a.SetRat(k, r(v))
		}
		for k, v := range ints {
			a.SetInt(k, v)
		}
		if err := d.WithDefaults(a); err != nil {
			t.Fatal(err)
		}
		return a
	}
	tests := []struct {
		name string
		rats map[string]string
		ints map[string]int
	}{
		{"truncated_geometric", map[string]string{"alpha": "1/2"}, map[string]int{"n": 2000}},
		{"truncated_geometric", map[string]string{"alpha": "999/1000"}, map[string]int{"n": 3000}},
		{"above_threshold", nil, map[string]int{"k": 16}},
		{"laplace_decision", map[string]string{"alpha": "999/1000"}, map[string]int{"k": 4000, "hi": 8000}},
		{"laplace_decision", map[string]string{"alpha": "1/2"}, map[string]int{"k": 1_000_000, "hi": 1}},
	}
	for _, tt := range tests {
		d, _ := builder.Lookup(tt.name)
		if err := d.CheckSize(set(d, tt.rats, tt.ints), model.DefaultLimits); err != nil {
			t.Errorf("%s %v %v: %v", tt.name, tt.rats, tt.ints, err)
		}
	}
}

// TestBitsEstimate: every builder's bit estimate bounds the bits of the
// distinct probabilities of the chain it builds, and is within the stated
// factor of them (plus 64 bits a probability, for the small models): 1.2
// for the decisions and the truncated geometric mechanism, 3 for the
// others, 4 for generalized_decision, whose probabilities are clamped to 0
// and 1 away from m (6 for models/generalized_decision.dp). compose
// creates no probabilities: its chain shares the model's.
func TestBitsEstimate(t *testing.T) {
	tests := []struct {
		call   string
		factor float64 // estimate <= factor·bits + 64 per probability
	}{
		{"survey(theta1 = 1/3, theta2 = 1/4)", 3},
		{"survey(theta1 = 999/1000, theta2 = 0)", 3},
		{"randomized_response(theta1 = 2/3, k = 7)", 3},
		{"truncated_geometric(alpha = 1/2, n = 40)", 1.2},
		{"truncated_geometric(alpha = 999/1000, n = 60, sensitivity = 3)", 1.2},
		{"truncated_geometric(alpha = 1/1000, n = 30)", 1.2},
		{"above_threshold(alpha_t = 1/4, alpha_q = 1/2, n = 5, k = 4)", 3},
		{"above_threshold(alpha_t = 99/100, alpha_q = 2/3, n = 12, k = 3, cmp = \">\")", 3},
		{"above_threshold_loop(alpha_t = 1/4, alpha_q = 1/2, n = 5)", 3},
		{"above_threshold_untruncated(alpha_t = 1/4, alpha_q = 1/2, n = 3, k = 25)", 3},
		{"above_threshold_untruncated(alpha_t = 99/100, alpha_q = 2/3, n = 6, k = 10, cmp = \">\")", 3},
		{"above_threshold_untruncated(alpha_t = 1/2, alpha_q = 999/1000, n = 2, k = 20)", 3},
		{"above_threshold_untruncated(alpha_t = 1/1000, alpha_q = 1/3, n = 8, k = 1)", 3},
		{"untruncated_geometric(alpha = 1/2, n = 40)", 1.2},
		{"untruncated_geometric(alpha = 999/1000, n = 60, sensitivity = 3)", 1.2},
		{"above_threshold_loop(alpha_t = 3/7, alpha_q = 999/1000, n = 10, cmp = \">\")", 3},
		{"yarrow_geometric(alpha = 1/2, count_max = 5, bits = 4)", 3},
		{"yarrow_geometric(alpha = 998/999, count_min = -3, count_max = 9)", 3},
		{"laplace_decision(alpha = 999/1000, k = 300, hi = 600)", 1.2},
		{"laplace_decision(alpha = 1/3, k = -50, lo = -20, hi = 40)", 1.2},
		{"laplace_decision(alpha = 1/1000, k = 200, hi = 10)", 1.2},
		{"cutoff_decision(alpha = 9/10, m = 20, hi = 30)", 1.2},
		{"cutoff_decision(alpha = 999/1000, m = 500, lo = 100, hi = 300)", 1.2},
		{"cutoff_decision(alpha = 1/2, m = -5, hi = 3)", 1.2},
		{"generalized_decision(alpha = 999/1000, delta = 1/1000, m = 100, hi = 200)", 4},
		{"generalized_decision(alpha = 1/2, delta = 0, m = 30, lo = 10, hi = 50)", 4},
		{"generalized_decision(alpha = 2/3, delta = 1/7, m = 3, hi = 6)", 4},
		{"streaming_sum(rows = 10, p = 3/5)", 3},
		{"interactive_survey(questions = 3)", 3},
		{"above_threshold_mdp()", 3},
		{"above_threshold_mdp(alpha_t = 99/100, alpha_q = 2/3, n = 12, cmp = \">\")", 3},
		{"compose(k = 3, model = truncated_geometric(alpha = 1/2, n = 3))", 0},
		{"compose(k = 2, model = laplace_decision(alpha = 999/1000, k = 30, hi = 40))", 0},
	}
	covered := map[string]bool{}
	for _, tt := range tests {
		d, a, m, err := call(t, tt.call, model.Limits{})
		if err != nil {
			t.Errorf("%s: %v", tt.call, err)
			continue
		}
		covered[d.Name] = true
		got, n := mechanismBits(m)
		est := d.Bits(a)
		if d.Name == "compose" {
			// No probability of the composition is new.
			model := map[*big.Rat]bool{}
			mc := a.Model("model").Chain
			for s := range mc.NumStates() {
				_, p := mc.Row(s)
				for _, x := range p {
					model[x] = true
				}
			}
			c := m.Chain
			for s := range c.NumStates() {
				_, p := c.Row(s)
				for _, x := range p {
					if !model[x] {
						t.Errorf("%s: probability %s of %s is not the model's", tt.call, x.RatString(), c.Name(s))
					}
				}
			}
			continue
		}
		if got > est {
			t.Errorf("%s: the chain's %d probabilities have %g bits, more than the estimate %g", tt.call, n, got, est)
		}
		if est > tt.factor*got+64*float64(n) {
			t.Errorf("%s: estimate %g, more than %g × the %g bits of the chain's %d probabilities", tt.call, est, tt.factor, got, n)
		}
	}
	for _, d := range builder.Catalog() {
		if d.Bits == nil || d.Size == nil {
			t.Errorf("%s: no Size or Bits estimate", d.Name)
		}
		if !covered[d.Name] {
			t.Errorf("%s: not tested", d.Name)
		}
	}
}

// TestDecisionPowers: the decisions compute only the powers of α their
// counts need, from one exponentiation, with the same values as the seed's
// formulas.
func TestDecisionPowers(t *testing.T) {
	pow := func(x *big.Rat, j int) *big.Rat {
		return new(big.Rat).SetFrac(new(big.Int).Exp(x.Num(), big.NewInt(int64(j)), nil), new(big.Int).Exp(x.Denom(), big.NewInt(int64(j)), nil))
	}
	half := big.NewRat(1, 2)
	alpha := big.NewRat(2, 3)
	for _, k := range []int{-40, 0, 3, 7, 40} {
		m, err := builder.LaplaceDecision(alpha, k, 0, 7)
		if err != nil {
			t.Fatal(err)
		}
		c := m.Chain
		yes, _ := c.Lookup("yes")
		for N := 0; N <= 7; N++ {
			s, _ := c.Lookup("n" + strconv.Itoa(N))
			var want *big.Rat
			if N < k {
				want = new(big.Rat).Mul(half, pow(alpha, k-N))
			} else {
				want = new(big.Rat).Sub(big.NewRat(1, 1), new(big.Rat).Mul(half, pow(alpha, N-k)))
			}
			if got := c.Prob(s, yes); got.Cmp(want) != 0 {
				t.Errorf("laplace k = %d: Pr[yes | %d] = %s, want %s", k, N, got.RatString(), want.RatString())
			}
		}
	}
	for _, mm := range []int{-3, 0, 4, 7, 8, 30} {
		m, err := builder.CutoffDecision(alpha, mm, 0, 7)
		if err != nil {
			t.Fatal(err)
		}
		c := m.Chain
		yes, _ := c.Lookup("yes")
		for N := 0; N <= 7; N++ {
			s, _ := c.Lookup("n" + strconv.Itoa(N))
			want := big.NewRat(1, 1)
			if N < mm {
				want = pow(alpha, mm-N)
			}
			if got := c.Prob(s, yes); got.Cmp(want) != 0 {
				t.Errorf("cutoff m = %d: Pr[yes | %d] = %s, want %s", mm, N, got.RatString(), want.RatString())
			}
		}
	}
	// The threshold is bounded so that distances cannot overflow.
	if _, err := builder.LaplaceDecision(half, math.MaxInt, 0, 1); err == nil ||
		err.Error() != "laplace_decision: parameter k must be between -1099511627776 and 1099511627776, got 9223372036854775807" {
		t.Errorf("huge k: %v", err)
	}
	if _, err := builder.CutoffDecision(half, math.MinInt, 0, 1); err == nil ||
		err.Error() != "cutoff_decision: parameter m must be between -1099511627776 and 1099511627776, got -9223372036854775808" {
		t.Errorf("huge m: %v", err)
	}
}

// BenchmarkLaplaceDecisionFar builds the decision over counts 0..1 at
// k = 10^6: four probabilities of about 10^6 bits.
//
//	go test ./builder -run '^$' -bench LaplaceDecisionFar -benchmem
func BenchmarkLaplaceDecisionFar(b *testing.B) {
	for b.Loop() {
		if _, err := builder.LaplaceDecision(big.NewRat(1, 2), 1_000_000, 0, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDeclaredRanges: a parameter's declared range is checked before the
// size, with the builder's own message, and the builder refuses the same
// values when called without CheckSize.
func TestDeclaredRanges(t *testing.T) {
	checked := 0
	for _, d := range builder.Catalog() {
		for _, p := range d.Params {
			if p.Kind != builder.Integer || p.Max <= p.Min {
				continue
			}
			for _, bad := range []int{p.Min - 1, p.Max + 1} {
				a := builder.NewArgs()
				for _, q := range d.Params {
					switch q.Kind {
					case builder.Rational:
						a.SetRat(q.Name, big.NewRat(1, 2))
					case builder.Integer:
						a.SetInt(q.Name, q.Min)
					}
				}
				a.SetInt(p.Name, bad)
				if err := d.WithDefaults(a); err != nil {
					t.Fatal(err)
				}
				a.SetInt(p.Name, bad)
				want := fmt.Sprintf("%s: parameter %s must be between %d and %d, got %d", d.Name, p.Name, p.Min, p.Max, bad)
				var pe *builder.ParamError
				if err := d.CheckSize(a, model.Limits{}); !errors.As(err, &pe) || err.Error() != want {
					t.Errorf("%s with %s = %d: CheckSize says %v, want %q", d.Name, p.Name, bad, err, want)
				}
				if _, err := d.Build(context.Background(), a); err == nil || err.Error() != want {
					t.Errorf("%s with %s = %d: Build says %v, want %q", d.Name, p.Name, bad, err, want)
				}
				checked++
			}
		}
	}
	if checked < 8 {
		t.Errorf("%d values checked, want a value on each side of at least four ranges", checked)
	}
}
