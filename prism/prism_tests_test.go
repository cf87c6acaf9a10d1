package prism_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/prism"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// PRISM's regression tests (prism_tests under the external models): every
// properties file is split into its single properties, each with the
// `// RESULT: …` comments above it and the file's declarations, and
// checked on its model with the constants of each run of its .args file.
// Where dpcheck computes the property, its exact value must be PRISM's
// recorded result: equal for a fraction or an integer, within the stated
// relative tolerance 1e-6 for a decimal (a comparison of the test only),
// true or false for a state formula; where PRISM records an error, dpcheck
// must refuse too. What dpcheck refuses as unsupported (rewards, steady
// state, CTL's E and A, lower and interval time bounds, LTL) is listed in
// testdata/prism_tests.txt with its message, beside every value compared;
// -update rewrites that list.

const prismTests = "prism_tests"

// prismProp is one property of a properties file, with PRISM's results.
type prismProp struct {
	line int    // the line of the property in its file
	text string // the property as written
	// results are PRISM's recorded results: by the constants they are
	// for ("" for every run, "N=3" for the run with N=3).
	results map[string]string
}

// splitProperties splits a PRISM properties file into its declarations
// (const, label, formula: kept with every property) and its properties,
// each with the RESULT comments written above it since the previous one.
// A property or declaration that spans lines is joined until its brackets
// close.
func splitProperties(src string) (decls string, props []prismProp) {
	resultRE := regexp.MustCompile(`^//\s*RESULT\s*(?:\(([^)]*)\))?\s*:\s*(.*)$`)
	lines := strings.Split(src, "\n")
	pending := map[string]string{}
	var b strings.Builder
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if m := resultRE.FindStringSubmatch(l); m != nil {
			pending[strings.ReplaceAll(m[1], " ", "")] = strings.TrimSpace(m[2])
			continue
		}
		if l == "" || strings.HasPrefix(l, "//") {
			continue
		}
		start := i
		text := l
		for depth(text) > 0 && i+1 < len(lines) {
			i++
			text += "\n" + lines[i]
		}
		if w := strings.Fields(text)[0]; w == "const" || w == "label" || w == "formula" {
			b.WriteString(text + "\n")
			continue
		}
		props = append(props, prismProp{line: start + 1, text: text, results: pending})
		pending = map[string]string{}
	}
	return b.String(), props
}

// depth is how many brackets text leaves open.
func depth(text string) int {
	d := 0
	for _, r := range text {
		switch r {
		case '(', '[', '{':
			d++
		case ')', ']', '}':
			d--
		}
	}
	return d
}

// runsOf returns the constants of each run of a properties file's .args
// file (one run without constants when there is none): the -const options
// of each line. Engine options (the method of computation) do not change
// the result; a line with an option that changes the semantics (-fair,
// -mdp, …) is not a run dpcheck can reproduce, and is left out.
func runsOf(t *testing.T, path string) []string {
	src, err := os.ReadFile(path + ".args")
	if errors.Is(err, os.ErrNotExist) {
		return []string{""}
	}
	if err != nil {
		t.Fatal(err)
	}
	engine := map[string]bool{"-ex": true, "-explicit": true, "-s": true, "-sparse": true, "-h": true, "-hybrid": true,
		"-m": true, "-mtbdd": true, "-power": true, "-jacobi": true, "-gs": true, "-bgs": true, "-pgs": true,
		"-ii": true, "-topological": true, "-exact": true, "-politer": true, "-valiter": true, "-pathviaautomata": true}
	var runs []string
	for _, l := range strings.Split(string(src), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		f := strings.Fields(l)
		var consts []string
		ok := true
		for i := 0; i < len(f); i++ {
			switch {
			case f[i] == "-const" && i+1 < len(f):
				consts = append(consts, f[i+1])
				i++
			case !engine[f[i]]:
				ok = false
			}
		}
		if c := strings.Join(consts, ","); ok && !slices.Contains(runs, c) {
			runs = append(runs, c)
		}
	}
	return runs
}

// expected returns PRISM's result for a property in the run with the
// given constants.
func (p prismProp) expected(consts string) (string, bool) {
	if r, ok := p.results[consts]; ok {
		return r, true
	}
	r, ok := p.results[""]
	return r, ok
}

// compareNumber compares dpcheck's exact value with PRISM's recorded
// result: a fraction or integer exactly, a decimal within 1e-6 relative.
func compareNumber(got *big.Rat, want string) error {
	w := strings.Fields(want)[0]
	exactForm := !strings.ContainsAny(w, ".eE")
	x, ok := new(big.Rat).SetString(w)
	if !ok {
		return fmt.Errorf("PRISM's result %q is not a number", want)
	}
	if exactForm {
		if got.Cmp(x) != 0 {
			return fmt.Errorf("dpcheck %s, PRISM %s", got.RatString(), w)
		}
		return nil
	}
	diff := new(big.Rat).Sub(got, x)
	diff.Abs(diff)
	tol := new(big.Rat).Mul(new(big.Rat).Abs(x), big.NewRat(1, 1_000_000))
	if x.Sign() == 0 {
		tol = big.NewRat(1, 1_000_000)
	}
	if diff.Cmp(tol) > 0 {
		return fmt.Errorf("dpcheck %s (%s), PRISM %s: beyond the relative tolerance 1e-6", got.RatString(), got.FloatString(12), w)
	}
	return nil
}

// TestPRISMRegressionTests checks every property of PRISM's regression
// tests that dpcheck supports against PRISM's recorded result.
func TestPRISMRegressionTests(t *testing.T) {
	root := filepath.Join(externalModels, prismTests)
	if _, err := os.Stat(root); err != nil {
		t.Skipf("SKIP: PRISM's regression tests are not available (%s is absent; set DPCHECK_EXTERNAL_MODELS): they are third-party files read in place, never copied into the repository", root)
	}
	var propsFiles []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".props") {
			propsFiles = append(propsFiles, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(propsFiles)
	var log strings.Builder
	compared, refused, agreed, beyond := 0, 0, 0, 0
	for _, pp := range propsFiles {
		rel, _ := filepath.Rel(root, pp)
		rel = filepath.ToSlash(rel)
		model := modelOf(pp)
		src, err := os.ReadFile(pp)
		if err != nil {
			t.Fatal(err)
		}
		decls, props := splitProperties(string(src))
		for _, run := range runsOf(t, pp) {
			var consts map[string]prism.Value
			if run != "" {
				if consts, err = prism.ParseConsts(run); err != nil {
					t.Fatalf("%s: constants %q: %v", rel, run, err)
				}
			}
			for _, p := range props {
				want, ok := p.expected(run)
				if !ok {
					t.Errorf("%s:%d: no RESULT for %s", rel, p.line, p.text)
					continue
				}
				at := fmt.Sprintf("%s:%d", rel, p.line)
				if run != "" {
					at += " (" + run + ")"
				}
				got, err := checkOne(t, model, decls, p, consts)
				prismError := strings.HasPrefix(want, "Error")
				switch {
				case err != nil && prismError:
					agreed++
					why := unsupportedWhat(err)
					if why == "" {
						why = err.Error()
					} else {
						why = "not supported: " + why
					}
					fmt.Fprintf(&log, "%s: refused, as by PRISM (%s)\n", at, why)
				case err != nil && unsupportedWhat(err) != "":
					refused++
					fmt.Fprintf(&log, "%s: not supported: %s\n", at, unsupportedWhat(err))
				case err != nil:
					t.Errorf("%s: %s: dpcheck refuses it (%v); PRISM's result is %s", at, p.text, err, want)
				case prismError && strings.Contains(want, "not supported"):
					// PRISM's own limit, not an error in the property.
					beyond++
					fmt.Fprintf(&log, "%s: %s, which PRISM does not support\n", at, got)
				case prismError:
					t.Errorf("%s: %s: dpcheck computes %s; PRISM refuses it (%s)", at, p.text, got, want)
				default:
					if cerr := compareResult(got, want); cerr != nil {
						t.Errorf("%s: %s: %v", at, p.text, cerr)
						continue
					}
					compared++
					fmt.Fprintf(&log, "%s: %s, PRISM's %s\n", at, got, strings.Fields(want)[0])
				}
			}
		}
	}
	fmt.Fprintf(&log, "%d values equal to PRISM's, %d refused as by PRISM, %d computed where PRISM does not support them, %d not supported\n", compared, agreed, beyond, refused)
	golden := filepath.Join("testdata", "prism_tests.txt")
	if *update {
		if err := os.WriteFile(golden, []byte(log.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	wantLog, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test ./prism -run TestPRISMRegressionTests -update writes it)", err)
	}
	if log.String() != string(wantLog) {
		t.Errorf("the outcomes differ from %s (-update rewrites it); got:\n%s", golden, log.String())
	}
}

// modelOf is the model of a properties file: its name up to the model's
// extension (robot.pm.cosafe.props is robot.pm's).
func modelOf(props string) string {
	dir, base := filepath.Split(props)
	for _, ext := range []string{".pm", ".nm", ".prism"} {
		if i := strings.Index(base, ext+"."); i >= 0 {
			return filepath.Join(dir, base[:i+len(ext)])
		}
	}
	return props
}

// unsupported names what dpcheck does not support, by a phrase of its
// refusal: an operator, or a path formula beyond PCTL with unbounded
// operators (LTL's G F, conjunctions of unbounded paths).
var unsupported = []struct{ phrase, what string }{
	{"the formula must be co-safe", "rewards of LTL paths that are not co-safe"},
	{"G F φ and F G φ need both", "LTL neither co-safe nor safe (G F, F G) on MDPs"},
	{"sits inside a formula that is neither co-safe nor safe", "LTL with bounded operators under G F or F G"},
	{"is not supported on MDPs", "total and long-run rewards on MDPs"},
	{"an end component without reward", "Rmin with end components without reward"},
	{"R inside a formula", "R nested in a formula"},
	{"S (steady state)", "steady state (S) on MDPs"},
	{"lower, exact and interval time bounds", "lower or interval time bounds"},
	{"multi-objective", "multi-objective (multi)"},
	{"the operands of an unbounded U, F or G must be state formulas", "LTL (nested unbounded operators)"},
	{"dpcheck computes such combinations only with bounded operators", "LTL (unbounded paths combined)"},
	{"R (release)", "release (R)"},
	{"filter(", "filter operator"},
	{"not supported", "other"},
}

// unsupportedWhat returns what a refusal says dpcheck does not support,
// or "" when it refuses the property as wrong. (The golden list records
// this rather than the message, which may quote the property.)
func unsupportedWhat(err error) string {
	for _, u := range unsupported {
		if strings.Contains(err.Error(), u.phrase) {
			return u.what
		}
	}
	return ""
}

// checkOne checks one property on its model and returns its value: the
// probability at the initial state for P=?, Pmin=? and Pmax=?, "true" or
// "false" for a state formula.
func checkOne(t *testing.T, model, decls string, p prismProp, consts map[string]prism.Value) (string, error) {
	t.Helper()
	pp := filepath.Join(t.TempDir(), "p.props")
	if err := os.WriteFile(pp, []byte(decls+p.text+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := dpcheck.Config{}.CheckPRISM(context.Background(), model, pp, consts)
	if err != nil {
		var list source.ErrorList
		if errors.As(err, &list) && len(list) > 0 {
			return "", errors.New(list[0].Msg)
		}
		return "", err
	}
	if len(res.Statements) != 1 {
		t.Fatalf("%s: %d statements", p.text, len(res.Statements))
	}
	o := res.Statements[0]
	var refused *property.RefusalError
	if errors.As(o.Err(), &refused) {
		return "", errors.New(refused.Why[0].Msg)
	}
	if o.Err() != nil {
		return "", o.Err()
	}
	switch o := o.(type) {
	case *property.ProbOutcome:
		if len(o.Probs) != 1 {
			t.Fatalf("%s: %d initial states", p.text, len(o.Probs))
		}
		return o.Probs[0].Pr.RatString(), nil
	case *property.RewardOutcome:
		if len(o.Values) != 1 {
			t.Fatalf("%s: %d initial states", p.text, len(o.Values))
		}
		if q := o.Statement().(*property.RewardQuery); q.Bound != nil {
			return fmt.Sprint(o.Holds), nil
		}
		if v := o.Values[0].Value; v != nil {
			return v.RatString(), nil
		}
		return "Infinity", nil
	case *property.FilterOutcome:
		switch v := o.Value(); {
		case v == "∞":
			return "Infinity", nil
		case o.States != nil && o.Bool == nil && o.Num == nil && !o.Inf:
			return "", fmt.Errorf("filter(%s, …) gives states, not a value", o.Statement().(*property.FilterQuery).Op)
		default:
			return v, nil
		}
	case *property.MDPProbOutcome:
		if len(o.Probs) != 1 {
			t.Fatalf("%s: %d initial states", p.text, len(o.Probs))
		}
		pr := o.Probs[0]
		switch o.Extreme {
		case "min":
			return pr.Min.RatString(), nil
		case "max":
			return pr.Max.RatString(), nil
		}
		if pr.Pr == nil {
			return "", fmt.Errorf("P=? on an MDP: %s", o.Value())
		}
		return pr.Pr.RatString(), nil
	}
	return fmt.Sprint(o.Pass()), nil
}

// compareResult compares a value of checkOne with PRISM's result: true
// or false as written, a number with compareNumber.
func compareResult(got, want string) error {
	w := strings.Fields(want)[0]
	if w == "true" || w == "false" || got == "true" || got == "false" || w == "Infinity" || got == "Infinity" {
		if got != w {
			return fmt.Errorf("dpcheck %s, PRISM %s", got, w)
		}
		return nil
	}
	x, ok := new(big.Rat).SetString(got)
	if !ok {
		return fmt.Errorf("dpcheck's value %q", got)
	}
	return compareNumber(x, want)
}
