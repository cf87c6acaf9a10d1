package prism_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/prism"
	"github.com/dpcheck/dpcheck/source"
	"github.com/google/go-cmp/cmp"
)

// externalModels is where the public PRISM models used as test inputs
// live: $DPCHECK_EXTERNAL_MODELS, or ../shared/external_models beside the
// repository. They are read from there and never copied into the
// repository (their licences do not allow it).
var externalModels = externalDir()

func externalDir() string {
	if d := os.Getenv("DPCHECK_EXTERNAL_MODELS"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "shared", "external_models")
}

// readExternal returns the text of a file under externalModels, skipping
// the test when the folder is absent.
func readExternal(t *testing.T, rel string) (string, string) {
	t.Helper()
	if _, err := os.Stat(externalModels); err != nil {
		t.Skipf("SKIP: the external models are not available (%s is absent; set DPCHECK_EXTERNAL_MODELS): they are third-party files read in place, never copied into the repository", externalModels)
	}
	path := filepath.Join(externalModels, rel)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, string(src)
}

func parseModel(t *testing.T, rel string) *prism.ModelFile {
	t.Helper()
	path, src := readExternal(t, rel)
	m, err := prism.ParseModel(path, src)
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	checkSpans(t, src, modelExprs(m))
	return m
}

func parseProps(t *testing.T, rel string) *prism.PropertiesFile {
	t.Helper()
	path, src := readExternal(t, rel)
	f, err := prism.ParseProperties(path, src)
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	checkSpans(t, src, propExprs(f))
	return f
}

// refusedExternal are the external files the parser refuses, with the
// exact error (the first, where parsing stops): they use what dpcheck does
// not support — multi-objective properties. PRISM's regression tests (prism_tests) are
// mostly such files; TestPRISMRegressionTests checks their properties
// one by one.
var refusedExternal = map[string]string{
	"prism_tests/mdps/rewards/total-reward-2.nm.props": "12:1: multi-objective properties (multi) are not supported: dpcheck checks P, R, S, D and filter properties one by one",
	"prism_tests/mdps/rewards/total-reward-3.nm.props": "12:1: multi-objective properties (multi) are not supported: dpcheck checks P, R, S, D and filter properties one by one",
}

// TestExternalFilesParse: every PRISM model and properties file of the
// external models parses, but for those of refusedExternal, refused at
// their exact position (for a properties file, its first property refused
// on its own).
func TestExternalFilesParse(t *testing.T) {
	readExternal(t, "README.md")
	n := 0
	err := filepath.WalkDir(externalModels, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		var parse func(string, string) error
		switch filepath.Ext(path) {
		case ".prism", ".pm", ".nm":
			parse = func(name, src string) error {
				m, err := prism.ParseModel(name, src)
				if err == nil {
					checkSpans(t, src, modelExprs(m))
				}
				return err
			}
		case ".pctl", ".props":
			parse = func(name, src string) error {
				f, err := prism.ParseProperties(name, src)
				if err != nil {
					return err
				}
				checkSpans(t, src, propExprs(f))
				// The first property refused on its own stands for the
				// file's refusals.
				for _, p := range f.Props {
					if p.Refused != nil {
						return source.ErrorList{{Pos: f.Position(p.Refused.Off), Msg: p.Refused.Msg}}
					}
				}
				return nil
			}
		default:
			return nil
		}
		n++
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(externalModels, path)
		rel = filepath.ToSlash(rel)
		err = parse(path, string(src))
		switch want, refused := refusedExternal[rel]; {
		case refused && err == nil:
			t.Errorf("%s parses; want %s", rel, want)
		case refused:
			if got := errorOf(t, path, err); got != want {
				t.Errorf("%s: got %s, want %s", rel, got, want)
			}
		case err != nil:
			t.Errorf("%s: %v", rel, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 20 {
		t.Errorf("only %d PRISM files found under %s, want at least 20", n, externalModels)
	}
}

func TestDiningCryptographers(t *testing.T) {
	m := parseModel(t, "prism_dining_crypt/dining_crypt3.nm")
	if m.Type != prism.MDP || m.TypeWord != "mdp" || m.Line(m.TypeOff) != 4 {
		t.Errorf("type %v %q at line %d, want mdp at line 4", m.Type, m.TypeWord, m.Line(m.TypeOff))
	}
	var consts []string
	for _, c := range m.Consts {
		consts = append(consts, c.Type.String()+" "+c.Name.Name+" = "+sexpr(c.Value))
	}
	if diff := cmp.Diff([]string{"int N = 3", "int p1 = 1", "int p2 = 2", "int p3 = 3"}, consts); diff != "" {
		t.Errorf("constants (-want +got):\n%s", diff)
	}
	if len(m.Globals) != 1 || m.Globals[0].Name.Name != "pay" || !m.Globals[0].Global || sexpr(m.Globals[0].Low) != "0" || sexpr(m.Globals[0].High) != "N" || m.Globals[0].Init != nil {
		t.Errorf("globals: %+v", m.Globals)
	}
	if len(m.Modules) != 3 {
		t.Fatalf("%d modules, want 3", len(m.Modules))
	}
	c1, c2, c3 := m.Modules[0], m.Modules[1], m.Modules[2]
	if c1.Renamed() || c1.Name.Name != "crypt1" || len(c1.Vars) != 3 || len(c1.Commands) != 6 {
		t.Errorf("crypt1: renamed %v, %d variables, %d commands; want 3 and 6", c1.Renamed(), len(c1.Vars), len(c1.Commands))
	}
	for i, mod := range []*prism.Module{c2, c3} {
		if !mod.Renamed() || mod.Base.Name != "crypt1" || len(mod.Renames) != 5 || len(mod.Vars)+len(mod.Commands) != 0 {
			t.Errorf("module %d: %+v", i+2, mod)
		}
	}
	var renames []string
	for _, r := range c3.Renames {
		renames = append(renames, r.From.Name+"="+r.To.Name)
	}
	if got := strings.Join(renames, ", "); got != "coin1=coin3, s1=s3, agree1=agree3, p1=p3, coin2=coin1" {
		t.Errorf("crypt3 renames %s", got)
	}
	if m.Line(c3.Start) != 45 || m.Source(c3.Span) != "module crypt3 = crypt1 [ coin1=coin3, s1=s3, agree1=agree3, p1=p3, coin2=coin1 ] endmodule" {
		t.Errorf("crypt3 at line %d: %q", m.Line(c3.Start), m.Source(c3.Span))
	}
	done := c1.Commands[5]
	if done.Action == nil || done.Action.Name != "done" || len(done.Updates) != 1 || !done.Updates[0].True || done.Updates[0].Prob != nil {
		t.Errorf("the [done] command: %+v", done)
	}
	if m.Line(done.Start) != 39 || m.Source(done.Span) != "[done] s1=1 -> true;" || m.Position(done.Arrow).Column != 14 {
		t.Errorf("the [done] command at line %d: %q, -> at %v", m.Line(done.Start), m.Source(done.Span), m.Position(done.Arrow))
	}
	agree := c1.Commands[1]
	if agree.Action != nil || sexpr(agree.Guard) != "(& (= s1 0) (> coin1 0) (> coin2 0) (= coin1 coin2) (paren (!= pay p1)))" {
		t.Errorf("guard %s", sexpr(agree.Guard))
	}
	if len(agree.Updates) != 1 || agree.Updates[0].Prob != nil || len(agree.Updates[0].Assigns) != 2 || agree.Updates[0].Assigns[1].Var.Name != "agree1" || sexpr(agree.Updates[0].Assigns[1].Value) != "1" {
		t.Errorf("updates %+v", agree.Updates)
	}
	if m.Init == nil || m.Line(m.Init.Start) != 49 || len(m.Init.Cond.Args) != 9 {
		t.Errorf("init: %+v", m.Init)
	}
	var formulas []string
	for _, f := range m.Formulas {
		formulas = append(formulas, f.Name.Name+" = "+sexpr(f.Value))
	}
	if diff := cmp.Diff([]string{
		"outcome = (+ (* 4 agree1) (* 2 agree2) (* 1 agree3))",
		"parity = (func:mod (+ agree1 agree2 agree3) 2)",
	}, formulas); diff != "" {
		t.Errorf("formulas (-want +got):\n%s", diff)
	}
	var labels []string
	for _, l := range m.Labels {
		labels = append(labels, l.Name.Name+" = "+sexpr(l.Value))
	}
	if diff := cmp.Diff([]string{
		"done = (& (= s1 1) (= s2 1) (= s3 1))",
		"even = (= (func:mod (paren (+ agree1 agree2 agree3)) 2) 0)",
		"odd = (= (func:mod (paren (+ agree1 agree2 agree3)) 2) 1)",
	}, labels); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
	if len(m.Rewards) != 0 {
		t.Errorf("rewards: %+v", m.Rewards)
	}
}

func TestCrowds(t *testing.T) {
	m := parseModel(t, "storm_crowds/crowds-5-5.pm")
	if m.Type != prism.DTMC {
		t.Errorf("type %v", m.Type)
	}
	var consts []string
	for _, c := range m.Consts {
		consts = append(consts, c.TypeWord+" "+c.Name.Name+" = "+c.Value.Op.String()+" "+sexpr(c.Value))
	}
	if diff := cmp.Diff([]string{
		"double PF = Double 0.8", "double notPF = Double .2", "double badC = Double .167",
		"double goodC = Double 0.833", "int TotalRuns = Int 5", "int CrowdSize = Int 5",
	}, consts); diff != "" {
		t.Errorf("constants (-want +got):\n%s", diff)
	}
	if len(m.Modules) != 1 {
		t.Fatalf("%d modules", len(m.Modules))
	}
	var vars []string
	for _, v := range m.Modules[0].Vars {
		typ := "[" + sexpr(v.Low) + ".." + sexpr(v.High) + "]"
		if v.Bool {
			typ = "bool"
		}
		vars = append(vars, v.Name.Name+" : "+typ+" init "+sexpr(v.Init))
	}
	if diff := cmp.Diff([]string{
		"phase : [0..4] init 0", "good : bool init false", "runCount : [0..TotalRuns] init 0",
		"observe0 : [0..TotalRuns] init 0", "observe1 : [0..TotalRuns] init 0", "observe2 : [0..TotalRuns] init 0",
		"observe3 : [0..TotalRuns] init 0", "observe4 : [0..TotalRuns] init 0", "lastSeen : [0..(+ CrowdSize -1)] init 0",
	}, vars); diff != "" {
		t.Errorf("variables (-want +got):\n%s", diff)
	}
	cmds := m.Modules[0].Commands
	if len(cmds) != 10 {
		t.Fatalf("%d commands, want 10", len(cmds))
	}
	c := cmds[1] // phase=1 -> goodC : … + badC : …
	if len(c.Updates) != 2 || sexpr(c.Updates[0].Prob) != "goodC" || sexpr(c.Updates[1].Prob) != "badC" || sexpr(c.Updates[0].Assigns[1].Value) != "true" {
		t.Errorf("command %q", m.Source(c.Span))
	}
	if got := m.Source(c.Updates[1].Span); got != "badC : (phase'=2) & (good'=false)" {
		t.Errorf("update span %q", got)
	}
	if got := sexpr(cmds[3].Guard); got != "(& (= phase 2) (! good) (= lastSeen 0) (< observe0 TotalRuns))" {
		t.Errorf("guard %s", got)
	}
	if len(m.Labels) != 7 || sexpr(m.Labels[5].Value) != "(| (> observe1 1) (> observe2 1) (> observe3 1) (> observe4 1))" {
		t.Errorf("labels: %d, %s", len(m.Labels), sexpr(m.Labels[5].Value))
	}
}

func TestProbabilisticCRLF(t *testing.T) {
	m := parseModel(t, "vi_stopping_trap/wimmer_fail.pm")
	if !strings.Contains(m.Src, "\r\n") {
		t.Fatal("the file has no CRLF line ends")
	}
	if m.Type != prism.DTMC || m.TypeWord != "probabilistic" || m.Position(m.TypeOff).String() != filepath.Join(externalModels, "vi_stopping_trap/wimmer_fail.pm")+":2:1" {
		t.Errorf("type %v %q at %v", m.Type, m.TypeWord, m.Position(m.TypeOff))
	}
	if len(m.Consts) != 1 || m.Consts[0].Name.Name != "gamma" || sexpr(m.Consts[0].Value) != "0.001" {
		t.Errorf("constants %+v", m.Consts)
	}
	mod := m.Modules[0]
	if mod.Name.Name != "sys" || m.Line(mod.Start) != 8 || m.Line(mod.End) != 19 || !strings.HasSuffix(m.Source(mod.Span), "endmodule") {
		t.Errorf("module %s at lines %d-%d", mod.Name.Name, m.Line(mod.Start), m.Line(mod.End))
	}
	c := mod.Commands[1]
	if m.Line(c.Start) != 13 || m.Source(c.Span) != "[] s=2 -> 0.5: (s'=3) + gamma: (s'=5) + (0.5-gamma): (s'=4);" {
		t.Errorf("command at line %d: %q", m.Line(c.Start), m.Source(c.Span))
	}
	var probs []string
	for _, u := range c.Updates {
		probs = append(probs, sexpr(u.Prob)+" : "+u.Assigns[0].Var.Name+"'="+sexpr(u.Assigns[0].Value))
	}
	if diff := cmp.Diff([]string{"0.5 : s'=3", "gamma : s'=5", "(paren (+ 0.5 -gamma)) : s'=4"}, probs); diff != "" {
		t.Errorf("updates (-want +got):\n%s", diff)
	}
	// The 15gamma variant: a constant after spaces, others commented out.
	m2 := parseModel(t, "vi_stopping_trap/wimmer_fail_15gamma.pm")
	if len(m2.Consts) != 1 || sexpr(m2.Consts[0].Value) != "0.000000000000001" || m2.Consts[0].Value.Op != prism.EDouble {
		t.Errorf("constants %+v", m2.Consts)
	}
}

func TestColor(t *testing.T) {
	// color.prism uses log, pow and ? : with decimal constants: the
	// parser accepts them; a translator refuses what it cannot keep exact.
	m := parseModel(t, "dpctl_epmc/color.prism")
	byName := map[string]*prism.Const{}
	for _, c := range m.Consts {
		byName[c.Name.Name] = c
	}
	if len(m.Consts) != 34 {
		t.Errorf("%d constants, want 34", len(m.Consts))
	}
	if got := sexpr(byName["q"].Value); got != "(* ep /64 /(log (* 1 /de) 2.71828183))" {
		t.Errorf("q = %s", got)
	}
	if got := sexpr(byName["p0"].Value); got != "(? (paren (< d0 0)) (+ 1 -(* 0.5 (pow 2.71828183 (* ep d0)))) (* 0.5 (pow 2.71828183 (* (neg ep) d0))))" {
		t.Errorf("p0 = %s", got)
	}
	cmds := m.Modules[0].Commands
	if len(cmds) != 14 || len(cmds[0].Updates) != 13 {
		t.Fatalf("%d commands, the first with %d updates", len(cmds), len(cmds[0].Updates))
	}
	if got := sexpr(cmds[0].Updates[12].Prob); got != "(paren (pow red 12))" {
		t.Errorf("last probability %s", got)
	}
	if got := sexpr(cmds[3].Updates[1].Prob); got != "(+ 1 -p2)" {
		t.Errorf("1-p2 : … parsed as %s", got)
	}
	if v := m.Modules[0].Vars[0]; sexpr(v.Low) != "(neg 4)" || sexpr(v.High) != "12" {
		t.Errorf("d : [%s..%s]", sexpr(v.Low), sexpr(v.High))
	}
}

func TestAboveThreshold(t *testing.T) {
	m := parseModel(t, "dpctl_epmc/Abovethreshold.prism")
	if len(m.Modules) != 2 || len(m.Modules[0].Commands) != 1 || len(m.Modules[1].Commands) != 43 {
		t.Fatalf("modules %d", len(m.Modules))
	}
	if got := sexpr(m.Modules[1].Commands[1].Guard); got != "(& (= d 10) (paren (< (mod d 10) (mod t 10))))" {
		t.Errorf("guard %s", got)
	}
	last := m.Modules[1].Commands[42]
	if got := sexpr(last.Guard); got != "(& (paren (>= (mod d 10) (mod t 10))) (paren (>= d 10)))" || len(last.Updates[0].Assigns) != 2 {
		t.Errorf("last command %s", got)
	}
	if m.Init == nil || sexpr(m.Init.Cond) != "(& (= t 4) (<= 0 d) (<= d 5))" {
		t.Errorf("init %s", sexpr(m.Init.Cond))
	}

	f := parseProps(t, "dpctl_epmc/Abovethreshold.pctl")
	if len(f.Props) != 10 {
		t.Fatalf("%d properties, want 10", len(f.Props))
	}
	if got := sexpr(f.Props[0].Expr); got != "(D 1 0 (X (paren (& (paren (= d (neg 1))) (paren (= t (neg 1)))))))" {
		t.Errorf("D property %s", got)
	}
	for i, p := range f.Props[1:] {
		k := i + 2 // X X … X, k times
		e := p.Expr
		if e.Op != prism.EProb || e.Text != "=" || e.Args[0] != nil {
			t.Fatalf("property %d: %s", i+2, sexpr(e))
		}
		path := e.Args[1]
		for range k {
			if path.Op != prism.ETemporal || path.Text != "X" || path.Args[1] != nil {
				t.Fatalf("property %d (%d X): %s", i+2, k, sexpr(e))
			}
			path = path.Args[0]
		}
		if sexpr(path.Unparen()) != "(= d (neg 1))" {
			t.Errorf("property %d ends in %s", i+2, sexpr(path))
		}
	}
	if f.Line(f.Props[9].Start) != 19 {
		t.Errorf("last property at line %d", f.Line(f.Props[9].Start))
	}
}

func TestSmallPropertyFiles(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []string
	}{
		{"dpctl_epmc/yn.pctl", []string{`(P=? (F (= s 2)))`, `(D 3 0 (F (paren (& (< 1 s) (<= s 2)))))`}},
		{"dpctl_epmc/yn2.pctl", []string{`(P=? (F (= s 2)))`, `(D 3 0 (F (paren (| (= s 2) (= s 4)))))`}},
		{"dpctl_epmc/color.pctl", []string{`(P=? (F (= d (neg 2))))`, `(P=? (F (= d (neg 3))))`, `(P=? (F (= d (neg 4))))`}},
		{"vi_stopping_trap/wimmer_fail.pctl", []string{`(P=? (U (= s 8) (paren (P<= 0.5 (U (| (= s 1) (= s 2) (= s 5) (= s 6)) (= s 3))))))`}},
		{"prism_dining_crypt/correctness.pctl", []string{
			`(filter:forall (=> (paren (= pay 0)) (P>= 1 (F (& "done" (= parity (func:mod N 2)))))) nil)`,
			`(filter:forall (=> (paren (> pay 0)) (P>= 1 (F (& "done" (!= parity (func:mod N 2)))))) nil)`,
		}},
		{"prism_dining_crypt/anonymity.pctl", []string{
			`(Pmin=? (F (& "done" (= outcome k))) ({}min (& "init" (> pay 0))))`,
			`(Pmax=? (F (& "done" (= outcome k))) ({}max (& "init" (> pay 0))))`,
		}},
	} {
		f := parseProps(t, tc.file)
		var got []string
		for _, p := range f.Props {
			got = append(got, sexpr(p.Expr))
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.file, diff)
		}
	}
	f := parseProps(t, "prism_dining_crypt/anonymity.pctl")
	if len(f.Consts) != 1 || f.Consts[0].Name.Name != "k" || f.Consts[0].Value != nil || f.Consts[0].Type != prism.ConstInt {
		t.Errorf("constants %+v", f.Consts)
	}
}

func TestRewardsRecorded(t *testing.T) {
	m := parseModel(t, "storm_parametric_die/parametric_die.pm")
	if len(m.Consts) != 1 || m.Consts[0].Value != nil || m.Consts[0].Type != prism.ConstDouble {
		t.Errorf("constants %+v", m.Consts)
	}
	if len(m.Rewards) != 1 {
		t.Fatalf("%d reward structures", len(m.Rewards))
	}
	r := m.Rewards[0]
	if r.Name == nil || r.Name.Name != "coin_flips" || m.Line(r.Start) != 24 || m.Line(r.End) != 26 || len(r.Items) != 1 {
		t.Errorf("rewards %+v at lines %d-%d", r, m.Line(r.Start), m.Line(r.End))
	}
	if it := r.Items[0]; !it.Transition || it.Action != nil || sexpr(it.Guard) != "(< s 7)" || sexpr(it.Value) != "1" {
		t.Errorf("reward item %q", m.Source(it.Span))
	}
	if len(m.Labels) != 7 || m.Labels[6].Name.Name != "done" || m.Position(m.Labels[6].Name.Off).Column != 7 {
		t.Errorf("labels %+v", m.Labels)
	}
	for _, name := range []string{"prism_dice/dice.pm", "prism_dice/two_dice_knuth.pm"} {
		m := parseModel(t, name)
		if len(m.Rewards) != 1 || m.Rewards[0].Name.Name != "coin_flips" {
			t.Errorf("%s: rewards %+v", name, m.Rewards)
		}
	}
}

// TestPrecedence: PRISM's operator precedence and associativity, in model
// expressions (as a formula) and in properties.
func TestPrecedence(t *testing.T) {
	model := []struct{ src, want string }{
		{"a ? b : c ? d : e", "(? a b (? c d e))"},
		{"a => b => c", "(=> (=> a b) c)"},
		{"a <=> b | c => d", "(=> (<=> a (| b c)) d)"},
		{"a | b & c | d", "(| a (& b c) d)"},
		{"!a & !!b", "(& (! a) (! (! b)))"},
		{"!a = b", "(! (= a b))"},
		{"a = b < c", "(= a (< b c))"},
		{"a < b = c != d", "(!= (= (< a b) c) d)"},
		{"a + b * c - d / e", "(+ a (* b c) -(* d /e))"},
		{"1 - 2 - 3", "(+ 1 -2 -3)"},
		{"a / b * c", "(* a /b c)"},
		{"-a * -b", "(* (neg a) (neg b))"},
		{"--a", "(neg (neg a))"},
		{"min(1, 2, 3) + max(a, b)", "(+ (min 1 2 3) (max a b))"},
		{"floor(x/2) + ceil(y) + round(z)", "(+ (floor (* x /2)) (ceil y) (round z))"},
		{"pow(2, n) * mod(i, n) * log(x, 2)", "(* (pow 2 n) (mod i n) (log x 2))"},
		{"func(max, 1, 2) + func(floor, x)", "(+ (func:max 1 2) (func:floor x))"},
		{"c ? 1 : 0 + 2", "(? c 1 (+ 0 2))"},
		{"a ? b => c : d", "(? a (=> b c) d)"},
		{".2 + 0.75 + 1e-3 + 2E+5 + 007 + 10", "(+ .2 0.75 1e-3 2E+5 007 10)"},
		{"true & false | D", "(| (& true false) D)"},
		{"(((x)))", "(paren (paren (paren x)))"},
	}
	for _, tc := range model {
		src := "formula f = " + tc.src + ";"
		m, err := prism.ParseModel("t.pm", src)
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		checkSpans(t, src, modelExprs(m))
		if got := sexpr(m.Formulas[0].Value); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.src, got, tc.want)
		}
	}
	// Literal kinds: integers as PRISM's REG_INT, every other literal a
	// double, both as written.
	m, _ := prism.ParseModel("t.pm", "const x = 007; const y = 0; const z = 1e3;")
	for i, want := range []prism.Op{prism.EDouble, prism.EInt, prism.EDouble} {
		if got := m.Consts[i].Value.Op; got != want {
			t.Errorf("%s is %v, want %v", m.Source(m.Consts[i].Value.Span()), got, want)
		}
	}

	props := []struct{ src, want string }{
		{`P>=0.5 [ F<=3 a & b ]`, "(P>= 0.5 (F<=3 (& a b)))"},
		{`P<1/2 [ G<k !"done" ]`, `(P< (* 1 /2) (G<k (! "done")))`},
		{`P=? [ X X X a ]`, "(P=? (X (X (X a))))"},
		{`P=? [ a | b U<=5 c ]`, "(P=? (U<=5 (| a b) c))"},
		{`P=? [ F a U G b ]`, "(P=? (U (F a) (G b)))"},
		{`P=? [ F<=t (b) ]`, "(P=? (F<=t (paren b)))"},
		{`P=? [ F<=floor(k/2) b ]`, "(P=? (F<=(floor (* k /2)) b))"},
		{`P=? [ (F a) & (G b) ]`, "(P=? (& (paren (F a)) (paren (G b))))"},
		{`P = ? [ X (a & P>0.9 [ F b ]) ]`, "(P=? (X (paren (& a (P> 0.9 (F b))))))"},
		{`Pmax=? [ F "goal" ]`, `(Pmax=? (F "goal"))`},
		{`P min=? [ F "goal" ]`, `(Pmin=? (F "goal"))`},
		{`D{?, 0}[X "done"]`, `(D ? 0 (X "done"))`},
		{`D{ln, ?}[X X "done"]`, `(D ln ? (X (X "done")))`},
		{`D{3,0}[F x=1] & !D{1/2, 1e-3}[G x>0]`, `(& (D 3 0 (F (= x 1))) (! (D (* 1 /2) 1e-3 (G (> x 0)))))`},
		{`filter(print, P=? [F a], "init")`, `(filter:print (P=? (F a)) "init")`},
		{`filter(+, P=? [F a])`, `(filter:+ (P=? (F a)) nil)`},
		{`"init" => P>=1 [ F "deadlock" ]`, `(=> "init" (P>= 1 (F "deadlock")))`},
		{`x > 2 ? P>0 [X a] : false`, `(? (> x 2) (P> 0 (X a)) false)`},
	}
	for _, tc := range props {
		f, err := prism.ParseProperties("t.props", tc.src)
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		checkSpans(t, tc.src, propExprs(f))
		if len(f.Props) != 1 {
			t.Errorf("%s: %d properties", tc.src, len(f.Props))
			continue
		}
		if got := sexpr(f.Props[0].Expr); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.src, got, tc.want)
		}
	}
}

// TestPropertiesFile: names, semicolons (optional, repeated), constants,
// labels and formulas among the properties, and their spans.
func TestPropertiesFile(t *testing.T) {
	src := "// a comment\r\nconst double eps = 1;\r\nlabel \"out\" = y=1;\r\nformula big = x > 3;\r\n" +
		"\"survey\": D{eps, 0}[X \"out\"];;\r\nP>=1/15 [ F big ]\r\n/* two\r\nlines */ \"second\" : P=? [ \"out\" U<=2 big ];\r\n"
	f, err := prism.ParseProperties("t.pctl", src)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Consts) != 1 || f.Consts[0].Type != prism.ConstDouble || len(f.Labels) != 1 || f.Labels[0].Name.Name != "out" || len(f.Formulas) != 1 || len(f.Props) != 3 {
		t.Fatalf("%d constants, %d labels, %d formulas, %d properties", len(f.Consts), len(f.Labels), len(f.Formulas), len(f.Props))
	}
	var got []string
	for _, p := range f.Props {
		name := "-"
		if p.Name != nil {
			name = p.Name.Name + "@" + f.Position(p.Name.Off).String()
		}
		got = append(got, name+" "+f.Source(p.Span))
	}
	want := []string{
		`survey@t.pctl:5:1 "survey": D{eps, 0}[X "out"]`,
		`- P>=1/15 [ F big ]`,
		`second@t.pctl:8:10 "second" : P=? [ "out" U<=2 big ]`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("properties (-want +got):\n%s", diff)
	}
	u := f.Props[2].Expr.Args[1]
	if u.Op != prism.EUntil || f.Position(int(u.OpOff)).Column != 33 {
		t.Errorf("U at %v", f.Position(int(u.OpOff)))
	}
}

// TestModelConstructs: the declarations of a model file, one of each.
func TestModelConstructs(t *testing.T) {
	src := `nondeterministic
const N = 4; const bool b; prob q = 0.25; const double r = 1/3;
global g : bool init true;
formula f = min(N, 3);
label "l" = x=1;
module m
  x : [0..N] init 0;
  y : bool;
  [] x<N -> q : (x'=x+1) + 1-q : true;
  [go] x=N -> (x'=0) & (y'=!y);
  [] y -> true;
endmodule
module m2 = m [ x=x2, y=y2, go=stop, min=max ] endmodule
rewards
  x>0 : x;
  [go] true : 1;
endrewards
init x=0 & y2 endinit
`
	m, err := prism.ParseModel("t.nm", src)
	if err != nil {
		t.Fatal(err)
	}
	checkSpans(t, src, modelExprs(m))
	if m.Type != prism.MDP || m.TypeWord != "nondeterministic" {
		t.Errorf("type %v %s", m.Type, m.TypeWord)
	}
	var consts []string
	for _, c := range m.Consts {
		consts = append(consts, c.Type.String()+"/"+c.TypeWord+" "+c.Name.Name+" "+sexpr(c.Value))
	}
	if diff := cmp.Diff([]string{"int/ N 4", "bool/bool b nil", "double/prob q 0.25", "double/double r (* 1 /3)"}, consts); diff != "" {
		t.Errorf("constants (-want +got):\n%s", diff)
	}
	if g := m.Globals[0]; !g.Bool || !g.Global || sexpr(g.Init) != "true" || m.Source(g.Span) != "global g : bool init true;" {
		t.Errorf("global %q", m.Source(g.Span))
	}
	mod := m.Modules[0]
	if v := mod.Vars[1]; !v.Bool || v.Init != nil || m.Source(v.Span) != "y : bool;" {
		t.Errorf("variable %q", m.Source(v.Span))
	}
	c := mod.Commands[0]
	if len(c.Updates) != 2 || sexpr(c.Updates[1].Prob) != "(+ 1 -q)" || !c.Updates[1].True || m.Source(c.Updates[1].Span) != "1-q : true" {
		t.Errorf("command %q", m.Source(c.Span))
	}
	c = mod.Commands[1]
	if c.Action.Name != "go" || len(c.Updates) != 1 || c.Updates[0].Prob != nil || m.Source(c.Updates[0].Assigns[1].Span) != "(y'=!y)" || sexpr(c.Updates[0].Assigns[1].Value) != "(! y)" {
		t.Errorf("command %q", m.Source(c.Span))
	}
	if r := m.Modules[1].Renames[3]; r.From.Name != "min" || r.To.Name != "max" {
		t.Errorf("rename %+v", r)
	}
	r := m.Rewards[0]
	if r.Name != nil || len(r.Items) != 2 || r.Items[0].Transition || !r.Items[1].Transition || r.Items[1].Action.Name != "go" {
		t.Errorf("rewards %+v", r)
	}
	if sexpr(m.Init.Cond) != "(& (= x 0) y2)" {
		t.Errorf("init %s", sexpr(m.Init.Cond))
	}
	// No model type: PRISM's default (mdp) is for the translator to apply.
	m, err = prism.ParseModel("t.pm", "module m x : [0..1]; endmodule")
	if err != nil || m.Type != prism.TypeNone || m.TypeOff != -1 || len(m.Modules[0].Commands) != 0 {
		t.Errorf("untyped model: %v, %+v", err, m)
	}
	// A byte-order mark at the start is skipped; columns do not count it.
	m, err = prism.ParseModel("t.pm", "\uFEFFdtmc\nmodule m endmodule")
	if err != nil || m.Position(m.TypeOff).Column != 1 {
		t.Errorf("BOM: %v", err)
	}
}

// TestLargeInput: memory and time stay proportional to the input, and
// long chains do not make deep trees.
func TestLargeInput(t *testing.T) {
	const n = 200_000
	src := "formula f = " + strings.Repeat("x+", n) + "1;\n"
	m, err := prism.ParseModel("t.pm", src)
	if err != nil {
		t.Fatal(err)
	}
	if e := m.Formulas[0].Value; e.Op != prism.ESum || len(e.Args) != n+1 {
		t.Errorf("%v with %d operands", e.Op, len(e.Args))
	}
	var b strings.Builder
	b.WriteString("dtmc\nmodule m\n s : [0..9];\n")
	for range 20_000 {
		b.WriteString("  [] s=0 -> 0.5 : (s'=1) + 0.5 : (s'=2) & (s'=3);\n")
	}
	b.WriteString("endmodule\n")
	m, err = prism.ParseModel("t.pm", b.String())
	if err != nil || len(m.Modules[0].Commands) != 20_000 {
		t.Fatalf("%v", err)
	}
	// Nesting up to the limit is fine.
	deep := "formula f = " + strings.Repeat("(", prism.MaxNesting) + "1" + strings.Repeat(")", prism.MaxNesting) + ";"
	if _, err := prism.ParseModel("t.pm", deep); err != nil {
		t.Errorf("%d levels: %v", prism.MaxNesting, err)
	}
}

func BenchmarkParseModel(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("dtmc\nconst double p = 0.25;\nmodule m\n s : [0..100] init 0;\n")
	for i := range 1000 {
		sb.WriteString("  [] s=" + itoa(i%100) + " & (mod(s, 3) < 2) -> p : (s'=min(s+1, 100)) + 1-p : (s'=max(s-1, 0));\n")
	}
	sb.WriteString("endmodule\n")
	src := sb.String()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := prism.ParseModel("b.pm", src); err != nil {
			b.Fatal(err)
		}
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}
