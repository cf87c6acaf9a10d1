package prism_test

import (
	"math/big"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/prism"
	"github.com/dpcheck/dpcheck/property"
	"github.com/google/go-cmp/cmp"
)

// base is a small valid model, extended by the error cases.
const base = "dtmc\nmodule m\n  s : [0..3] init 0;\n  b : bool init false;\n  [] s=0 -> 1/2 : (s'=1) + 1/2 : (s'=2);\nendmodule\n"

// TestTranslationErrors: what the translation refuses, each error with its
// file, line and column, every error of both files at once.
func TestTranslationErrors(t *testing.T) {
	cases := []struct {
		name, model, props string
		consts             map[string]prism.Value
		want               []string
	}{
		{name: "log", model: "dtmc\nconst double q = log(2, 10);\n" + base[5:], props: "P=? [ F s=1 ]",
			want: []string{"m.pm:2:18: log is not supported: a logarithm is irrational for almost every argument, and dpcheck computes with exact rationals only (write the value as a rational constant)"}},
		{name: "non-integer power", model: "dtmc\nconst double q = pow(2, 0.5);\n" + base[5:], props: "P=? [ F s=1 ]",
			want: []string{"m.pm:2:18: pow(x, y) with the exponent y = 1/2, not an integer: x^y is irrational here (or in general, when x is not a constant), and dpcheck computes with exact rationals only"}},
		{name: "double exponent", model: strings.Replace(base, "1/2 : (s'=1)", "pow(1/2, s/1) : (s'=1)", 1), props: "P=? [ F s=1 ]",
			want: []string{"m.pm:5:22: the exponent of pow is a double: dpcheck computes powers with integer exponents only (x^y is irrational in general)"}},
		{name: "unknown variable", model: strings.Replace(base, "[] s=0", "[] t=0", 1), props: "P=? [ F s=1 ]",
			want: []string{"m.pm:5:6: unknown name t (did you mean b?)"}},
		{name: "bool where a number is needed", model: strings.Replace(base, "[] s=0", "[] s+b=0", 1), props: "P=? [ F s=1 ]",
			want: []string{"m.pm:5:8: an operand of + must be a number, found a boolean"}},
		{name: "number where a bool is needed", model: strings.Replace(base, "[] s=0", "[] s", 1), props: "P=? [ F s=1 ]",
			want: []string{"m.pm:5:6: a guard must be a boolean (a condition), found an int"}},
		{name: "int assigned a double", model: strings.Replace(base, "(s'=1)", "(s'=s/2)", 1), props: "P=? [ F s=1 ]",
			want: []string{"m.pm:5:23: s is an int variable, and its new value is a double (PRISM refuses it; / divides exactly): round it with floor(…), ceil(…) or round(…)"}},
		{name: "bool assigned a number", model: strings.Replace(base, "(s'=1)", "(b'=1)", 1), props: "P=? [ F s=1 ]",
			want: []string{"m.pm:5:23: b is a bool variable: its new value must be a boolean, found an int"}},
		{name: "assigned twice", model: strings.Replace(base, "(s'=1)", "(s'=1) & (s'=2)", 1), props: "P=? [ F s=1 ]",
			want: []string{"m.pm:5:29: s is assigned twice in this update"}},
		{name: "another module's variable, synchronised", model: "dtmc\nmodule a\n  x : [0..1];\n  [go] true -> true;\nendmodule\nmodule b\n  y : [0..1];\n  [go] y=0 -> (x'=1);\nendmodule\n", props: "P=? [ F x=1 ]",
			want: []string{"m.pm:8:16: module b cannot write x, a variable of module a, in the synchronised command [go]: a command writes its own module's variables (PRISM's rule)"}},
		{name: "global written by a synchronised command", model: "dtmc\nglobal g : bool;\nmodule a\n  x : [0..1];\n  [go] x=0 -> (g'=true);\nendmodule\n", props: "P=? [ F g ]",
			want: []string{"m.pm:5:16: the synchronised command [go] cannot write the global variable g: in PRISM only unlabelled commands ([]) may"}},
		{name: "unknown variable assigned", model: strings.Replace(base, "(s'=1)", "(z'=1)", 1), props: "P=? [ F s=1 ]",
			want: []string{"m.pm:5:20: unknown variable z (did you mean b?)"}},
		{name: "missing constant", model: "dtmc\nconst int N;\n" + base[5:], props: "const double p;\nP>p [ F s=N ]",
			want: []string{
				"m.pm:2:11: the int constant N has no value: give it a value (N = …) when loading the model",
				"p.pctl:1:14: the double constant p has no value: give it a value (p = …) when loading the model"}},
		{name: "constant of the wrong type", model: "dtmc\nconst int N;\nconst bool B;\nconst int K = 2.5;\n" + base[5:], props: "P=? [ F s=N ]",
			consts: map[string]prism.Value{"N": {Num: r(1, 2), Text: "0.5"}, "B": {Num: r(1, 1)}},
			want: []string{
				"m.pm:2:11: N is an int constant: the value given, 0.5, is not an integer",
				"m.pm:3:12: B is a bool constant: the value given, 1, is not true or false",
				"m.pm:4:15: K is an int constant: its value 5/2 is not an integer (declare it const double)"}},
		{name: "name declared twice", model: "dtmc\nconst int s = 1;\n" + base[5:], props: "P=? [ F s=1 ]",
			want: []string{"m.pm:4:3: s is already declared as a constant at line 2"}},
		{name: "built-in label defined", model: base + "label \"init\" = s=0;\n", props: "P=? [ F s=1 ]",
			want: []string{"m.pm:7:7: \"init\" is a built-in label (the initial states): it cannot be defined"}},
		{name: "cyclic constants", model: "dtmc\nconst int a = c;\nconst int c = a+1;\n" + base[5:], props: "P=? [ F s=1 ]",
			want: []string{"m.pm:2:11: constant a is defined in terms of itself"}},
		{name: "cyclic formula", model: "dtmc\nformula f = g + 1;\nformula g = f;\n" + strings.Replace(base[5:], "[] s=0", "[] f=0", 1), props: "P=? [ F s=1 ]",
			want: []string{"m.pm:3:13: formula f is defined in terms of itself"}},
		{name: "renamed module keeps a variable", model: "dtmc\nmodule a\n  x : [0..1];\n  y : [0..1];\nendmodule\nmodule b = a [x=x2] endmodule\n", props: "P=? [ F x=1 ]",
			want: []string{"m.pm:6:8: module b copies a but does not rename its variable y: every local variable needs a new name (y=…)"}},
		{name: "renamed formula", model: "dtmc\nformula f = x;\nmodule a\n  x : [0..1];\nendmodule\nmodule b = a [x=y, f=g] endmodule\n", props: "P=? [ F x=1 ]",
			want: []string{"m.pm:6:20: formula f cannot be renamed: formulas are expanded before modules are renamed (as in PRISM)"}},
		{name: "copy of a missing module", model: "dtmc\nmodule a\n  x : [0..1];\nendmodule\nmodule b = c [x=y] endmodule\n", props: "P=? [ F x=1 ]",
			want: []string{"m.pm:5:12: no module c to copy"}},
		{name: "error in a renamed copy", model: "dtmc\nmodule a\n  x : [0..1];\n  [] x=k -> true;\nendmodule\nmodule b = a [x=y, k=j] endmodule\nconst int k = 0;\n", props: "P=? [ F x=1 ]",
			want: []string{"m.pm:4:8: unknown name j (did you mean k?) (in module b, a copy of a)"}},
		{name: "init block and initial values", model: base + "init s=0 endinit\n", props: "P=? [ F s=1 ]",
			want: []string{
				"m.pm:3:19: the initial value of s: a model with init … endinit gives its variables no initial values (PRISM refuses both)",
				"m.pm:4:17: the initial value of b: a model with init … endinit gives its variables no initial values (PRISM refuses both)"}},
		{name: "probability above 1", model: strings.Replace(base, "1/2 : (s'=1)", "3/2 : (s'=1)", 1), props: "P=? [ F s=1 ]",
			want: []string{"m.pm:5:13: the probability 3/2 is outside [0, 1]"}},
		{name: "mod of a double", model: strings.Replace(base, "[] s=0", "[] mod(s/1, 2)=0", 1), props: "P=? [ F s=1 ]",
			want: []string{"m.pm:5:10: mod(i, n) takes two ints, found a double"}},
		{name: "negative power of two ints", model: "dtmc\nconst int k = pow(2, -1);\nconst double h = pow(2.0, -1);\n" + base[5:], props: "P=? [ F s=1 ]",
			want: []string{"m.pm:2:15: pow(2, -1): a power of two ints is an int, and a negative exponent would make it a fraction (PRISM refuses it too); write pow(2.0, -1) for a double"}},
		{name: "division by zero", model: "dtmc\nconst double z = 1/(2-2);\n" + base[5:], props: "P=? [ F s=1 ]",
			want: []string{"m.pm:2:20: division by zero"}},
		{name: "huge range", model: "dtmc\nconst int N = 99999999999999999999;\nmodule m\n  s : [0..N];\nendmodule\n", props: "P=? [ F s=1 ]",
			want: []string{"m.pm:4:11: the high bound of s is 99999999999999999999, outside [-4611686018427387904, 4611686018427387904]"}},
		{name: "huge power", model: "dtmc\nconst int N = pow(10, 60000);\nconst int M = N*N*N*N*N*N;\n" + base[5:], props: "P=? [ F s=1 ]",
			want: []string{"m.pm:3:15: this value would have about 1,195,896 bits; the limit is 1,048,576"}},
		// 2^17 to the 60 000th has 1 020 001 bits: under the limit
		// (counting 18 bits a factor, it was refused); 2^18 is over it.
		{name: "power past the bits limit", model: "dtmc\nconst double q = pow(1/131072, 60000);\nconst double r = pow(262144, 60000);\n" + base[5:], props: "P=? [ F s=1 ]",
			want: []string{"m.pm:3:18: pow(262144, 60000) would have about 1,080,002 bits; the limit is 1,048,576"}},
		{name: "several errors at once", model: strings.Replace(strings.Replace(base, "[] s=0", "[] t=0", 1), "(s'=2)", "(s'=true)", 1), props: "P=? [ F \"nope\" ]\nP=? [ F u=1 ]",
			want: []string{
				"m.pm:5:6: unknown name t (did you mean b?)",
				"m.pm:5:38: s is an int variable: its new value must be an int, found the boolean true",
				"p.pctl:1:9: unknown label \"nope\" (labels: \"deadlock\", \"init\")",
				"p.pctl:2:9: unknown name u (did you mean b?)"}},
		// Properties.
		{name: "P=? inside a formula", model: base, props: "P=? [ F s=1 ] > 0.5",
			want: []string{"p.pctl:1:1: arithmetic and comparisons over the values of queries (P=? [ψ] + P=? [φ], P=? [ψ] > 0.5) are not supported: ask for each value as a whole property, P=? [ψ], or compare it within P, P>0.5 [ψ]"}},
		{name: "a number as a condition", model: base, props: "P>0.5 [ F 3 ]",
			want: []string{"p.pctl:1:11: a property's condition must be a boolean (a condition), found an int"}},
		{name: "bound outside [0, 1]", model: base, props: "P>=1.5 [ F s=1 ]",
			want: []string{"p.pctl:1:4: the probability bound 3/2 is outside [0, 1]"}},
		{name: "D with two unknowns", model: base, props: "D{?, ?} [ F s=1 ]",
			want: []string{"p.pctl:1:1: D{?, ?} asks for ε and δ at once: ask for one, D{?, δ}[ψ] or D{ε, ?}[ψ]"}},
		{name: "negative ε", model: base, props: "D{-1, 0} [ F s=1 ]",
			want: []string{"p.pctl:1:3: ε = -1 is negative"}},
		{name: "δ above 1", model: base, props: "D{1, 2} [ F s=1 ]",
			want: []string{"p.pctl:1:6: δ = 2 is outside [0, 1]"}},
		{name: "filter min of a condition", model: base, props: "filter(min, s=1)",
			want: []string{"p.pctl:1:13: filter(min, …) takes a number at every state (P=? [ψ], R=? [ρ], S=? [φ]); this is a condition"}},
		{name: "filter exists of a number", model: base, props: "filter(exists, P=? [ F s=1 ])",
			want: []string{"p.pctl:1:16: filter(exists, …) takes a condition at every state; this is a number"}},
		{name: "strict bound of zero", model: base, props: "P=? [ F<0 s=1 ]",
			want: []string{"p.pctl:1:9: a time bound is 0, outside [1, 100000]"}},
		{name: "bounded under recurrence", model: base, props: "P=? [ G F F<=2 s=1 ]",
			want: []string{"p.pctl:1:7: G F F<=2 s=1: a bounded operator (F<=k, G<=k, U<=k) sits inside a formula that is neither co-safe nor safe (as G F φ and F G φ are); dpcheck splits the chain on X, U, F and G there, not on bounded operators"}},
		{name: "a number as a property", model: base, props: "s+1",
			want: []string{"p.pctl:1:1: a property's condition must be a boolean (a condition), found an int"}},
		{name: "a property referring to itself", model: base, props: "\"a\": !\"a\"",
			want: []string{"p.pctl:1:7: property \"a\" refers to itself"}},
		{name: "no property", model: base, props: "// nothing\n",
			want: []string{"p.pctl:1:1: nothing to check: the properties file has no property (such as P=? [ F \"done\" ])"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := check(t, c.model, c.props, c.consts)
			var got []string
			if err == nil {
				// What dpcheck does not support refuses the property on
				// its own.
				var sts []property.Statement
				for _, o := range res.Statements {
					sts = append(sts, o.Statement())
				}
				if got = refusedOf(sts); got == nil {
					t.Fatal("loads, want errors")
				}
			} else {
				got = errorsOf(t, err)
			}
			if d := cmp.Diff(c.want, got); d != "" {
				t.Errorf("errors (-want +got):\n%s", d)
			}
		})
	}
}

// TestGivenConstants: values for names that are not undefined constants
// are refused (without a position when they were not written in a file);
// the values given are exact and typed.
func TestGivenConstants(t *testing.T) {
	model := "dtmc\nconst double p;\nconst bool up;\nmodule m\n  s : [0..2];\n  [] s=0 & up -> p : (s'=1) + 1-p : (s'=2);\nendmodule\n"
	_, err := check(t, model, "P=? [ X s=1 ]", map[string]prism.Value{"p": {Num: r(1, 3)}, "up": {Bool: true}, "q": {Num: r(1, 1)}})
	want := "a value is given for q, which is not a constant of m.pm or p.pctl (undefined constants: p, up)"
	if ce, ok := err.(*prism.ConstError); !ok || ce.Msg != want {
		t.Errorf("error %v, want the ConstError %q", err, want)
	}
	consts, err := prism.ParseConsts("p=1/3", "up=true")
	if err != nil {
		t.Fatal(err)
	}
	got := probs(t, mustCheck(t, model, "P=? [ X s=1 ]", consts))
	if d := cmp.Diff([]map[string]*big.Rat{{"s=0": r(1, 3)}}, got, ratCmp); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestParseConsts: PRISM's -const syntax, values exact.
func TestParseConsts(t *testing.T) {
	got, err := prism.ParseConsts("N=5,M=-3", "p=0.25", "q=1/3", "e=1e-3", "b=false")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"N": "5", "M": "-3", "p": "1/4", "q": "1/3", "e": "1/1000", "b": "false"}
	for name, w := range want {
		v := got[name]
		s := "false"
		if v.Num != nil {
			s = v.Num.RatString()
		} else if v.Bool {
			s = "true"
		}
		if s != w {
			t.Errorf("%s = %s, want %s", name, s, w)
		}
	}
	for def, msg := range map[string]string{
		"N":        `"N" is not a definition NAME=VALUE (such as N=5 or p=1/3)`,
		"N=":       "N: the value is empty",
		"N=abc":    "N: abc is not a number (write an integer, a decimal such as 0.25, a fraction such as 1/3, true or false)",
		"N=1:10":   "N: 1:10 is a range of values, where one value is needed",
		"N=1,N=2":  "N is given twice",
		"3=4":      `"3=4" is not a definition NAME=VALUE (such as N=5 or p=1/3)`,
		"p=1/0":    "p: 1/0 divides by zero",
		"p=1e9999": "p: 1e9999 is not a number (write an integer, a decimal such as 0.25, a fraction such as 1/3, true or false)",
	} {
		if _, err := prism.ParseConsts(def); err == nil || err.Error() != msg {
			t.Errorf("ParseConsts(%q): %v, want %q", def, err, msg)
		}
	}
}

// TestParseSweep: ranges give one assignment per combination, the first
// range varying slowest, and every way to get a range wrong is an error
// naming it.
func TestParseSweep(t *testing.T) {
	got, err := prism.ParseSweep("K=1..3", "p=1/4:1/4:1/2,b=true")
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, a := range got {
		texts = append(texts, a.Text+" b="+a.Consts["b"].String())
	}
	want := []string{"K=1, p=1/4 b=true", "K=1, p=1/2 b=true", "K=2, p=1/4 b=true", "K=2, p=1/2 b=true", "K=3, p=1/4 b=true", "K=3, p=1/2 b=true"}
	if d := cmp.Diff(want, texts); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	p := got[3].Project(func(n string) bool { return n != "K" })
	if p.Text != "p=1/2" || len(p.Consts) != 2 || p.Consts["b"].String() != "true" {
		t.Errorf("projected without K: %q, %v", p.Text, p.Consts)
	}
	one, err := prism.ParseSweep("N=5")
	if err != nil || len(one) != 1 || one[0].Text != "" || one[0].Consts["N"].Num.Cmp(big.NewRat(5, 1)) != 0 {
		t.Errorf("one value: %v, %v", one, err)
	}
	if none, err := prism.ParseSweep(); err != nil || len(none) != 1 || len(none[0].Consts) != 0 {
		t.Errorf("no definition: %v, %v; want one empty assignment", none, err)
	}
	for def, msg := range map[string]string{
		"K=3..1":          "K: 3..1 is empty: its start is above its end",
		"K=1/2..3":        "K: 1/2..3: the ends of lo..hi are integers (write lo:step:hi for other numbers)",
		"K=0:0:1":         "K: 0:0:1: the step must be positive",
		"K=1:2:3:4":       "K: 1:2:3:4 is not a range (write lo:hi or lo:step:hi)",
		"K=true..3":       "K: true..3: a range is of numbers",
		"K=1..2000":       "K: 1..2000 has more than 1000 values (the limit of a sweep)",
		"K=1..40,N=1..40": "the ranges make more than 1000 runs (the limit of a sweep)",
		"K=1..2,K=3":      "K is given twice",
		"K=1..2..3":       "K: 1..2..3 is not a range (write lo..hi, lo:hi or lo:step:hi)",
	} {
		if _, err := prism.ParseSweep(def); err == nil || err.Error() != msg {
			t.Errorf("ParseSweep(%q): %v, want %q", def, err, msg)
		}
	}
}
