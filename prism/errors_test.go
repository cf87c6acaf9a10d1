package prism_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/prism"
)

// TestModelErrors: every malformed or unsupported model gets its exact
// message at its exact position (line:column), the first error only.
func TestModelErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"dtmc\n/* a comment\nmodule m endmodule", "2:1: comment not terminated: /* has no matching */"},
		{"ctmc\nmodule m endmodule", "1:1: ctmc models are not supported: dpcheck checks discrete-time chains exactly"},
		{"stochastic", "1:1: stochastic (ctmc) models are not supported: dpcheck checks discrete-time chains exactly"},
		{"pta\nmodule m x : clock; endmodule", "1:1: pta models (probabilistic timed automata) are not supported: dpcheck checks discrete-time chains exactly"},
		{"mdp\nmodule m\n  x : clock;\nendmodule", "3:7: clock variables (pta) are not supported: dpcheck checks discrete-time chains exactly"},
		{"dtmc\nmodule m x : [0..1]; endmodule\nsystem m endsystem", "3:1: system … endsystem is not supported: dpcheck composes all modules in parallel, synchronising on shared actions (PRISM's default without it)"},
		{"pomdp\nobservables x endobservables", "1:1: pomdp models are not supported: dpcheck checks fully observable discrete-time models"},
		{"dtmc\nobservables x endobservables", "2:1: observables (pomdp) are not supported: dpcheck checks fully observable discrete-time models"},
		{"dtmc\nconst rate r = 1;", "2:7: rate constants are for ctmc models, which are not supported: dpcheck checks discrete-time chains exactly"},
		{"rate r = 1;", "1:1: rate constants are for ctmc models, which are not supported: dpcheck checks discrete-time chains exactly"},
		{"dtmc\nmodule m\n  x : [0..1];\n  invariant x <= 1 endinvariant\nendmodule", "4:3: invariant … endinvariant (pta) is not supported: dpcheck checks discrete-time chains exactly"},
		{"dtmc\nconst int N = 3\nmodule m endmodule", "3:1: unexpected \"module\" (expected \";\" to end the constant)"},
		{"dtmc\nmodule m\n  x : [0..1] init 0\n  [] x=0 -> (x'=1);\nendmodule", "4:3: unexpected \"[\" (expected \";\" to end the declaration)"},
		{"dtmc\nmodule m\n  x : [0..1];\n  [] x=0 (x'=1);\nendmodule", "4:10: unexpected \"(\" (expected \"->\" after the guard)"},
		{"dtmc\nmodule m\n  x : [0..1];\n  [] x=0 -> (x'=1)\n  [] x=1 -> (x'=0);\nendmodule", "5:3: unexpected \"[\" (expected \"&\" or \";\")"},
		{"dtmc\nformula f = (x + 1;", "2:19: unexpected \";\" (expected \")\")"},
		{"dtmc\nformula f = x + 1);", "2:18: unexpected \")\" (expected \";\" to end the formula)"},
		{"dtmc\nmodule m\n  x : [1..];\nendmodule", "3:11: unexpected \"]\" (expected the high bound of the range [lo..hi])"},
		{"dtmc\nmodule m\n  x : [0,1];\nendmodule", "3:9: unexpected \",\" (expected \"..\" (a range is written [lo..hi]))"},
		{"dtmc\nformula f = x $ 1;", "2:15: unexpected character \"$\""},
		{"formula f = " + strings.Repeat("(", 1001) + "1" + strings.Repeat(")", 1001) + ";", "1:1013: expression nested deeper than 1000 levels"},
		{"dtmc\nmodule m\n  x : [0..1];\n  [] x=0 -> 0.5 : (x'=1) + 0.5 : (x=0);\nendmodule", "4:35: the variable of an update is primed: write (x'=…)"},
		{"dtmc\nmodule m\n  x : [0..1];\n  [] x=0 -> x'=1;\nendmodule", "4:13: x' (a primed variable) only appears on the left of an update: (x'=…)"},
		{"dtmc\nmodule m\n  x : [0..1];\n  [] x=0 -> (x'=1) + 0.5 : (x'=0);\nendmodule", "4:20: unexpected \"+\": an update without a probability stands alone; give each update a probability, p : (x'=…) + q : (x'=…)"},
		{"dtmc\nmodule m\n  x : [0..1];\n  [] x=0 -> 0.5 : (x'=1) 0.5 : (x'=0);\nendmodule", "4:26: unexpected \"0.5\" (expected \"&\", \"+\" or \";\")"},
		{"dtmc\nmodule m\n  [] true -> true;\n  x : [0..1];\nendmodule", "4:3: the variable x is declared after a command: declare the variables of a module before its commands"},
		{"dtmc\nmodule m\n  x : [0..1];\n", "4:1: unexpected end of file (expected a command \"[action] guard -> updates;\" or \"endmodule\")"},
		{"dtmc\nmdp\n", "2:1: a second model type: the file already declares dtmc at line 1"},
		{"dtmc\nlabel done = x=1;", "2:7: label names are written in double quotes: label \"done\" = …"},
		{"dtmc\nlabel \"a b\" = x=1;", "2:7: \"a b\" is not a valid label name: write an identifier in double quotes, such as \"done\""},
		{"dtmc\nformula f = foo(1);", "2:13: unknown function foo (PRISM's functions: ceil, floor, log, max, min, mod, pow, round)"},
		{"dtmc\nformula f = pow(1);", "2:13: pow takes 2 arguments, pow(x, y); found 1"},
		{"dtmc\nformula f = min();", "2:17: unexpected \")\" (expected an argument)"},
		{"dtmc\nformula f = x';", "2:13: x' (a primed variable) only appears on the left of an update: (x'=…)"},
		{"dtmc\nformula f = P>0.5[F a];", "2:13: P is a property operator: it cannot appear in a model"},
		{"dtmc\nformula f = F a;", "2:13: F is a path operator: it can only appear inside P…[…] or D{…}[…] in a property"},
		{"dtmc\nformula f = \"a\";", "2:13: a quoted label (\"a\") only appears in properties"},
		{"dtmc\nconst int X = 1;", "2:11: X is a PRISM keyword and cannot name a constant"},
		{"dtmc\nx : [0..1];", "2:1: the variable x is declared outside a module: declare it inside module … endmodule, or as global x : …"},
		{"dtmc\n#const N#", "2:1: # starts a PRISM preprocessor directive, which dpcheck does not support: expand the file first (prismpp), and write comments as // …"},
		{"dtmc\nformula f = 1.;", "2:13: malformed number \"1.\": write digits after the decimal point (1.0)"},
		{"dtmc\nformula f = 1e;", "2:13: malformed number \"1e\": an exponent needs digits (1e-3)"},
		{"dtmc\nformula f = a ? b;", "2:18: unexpected \";\" (expected \":\" of c ? a : b)"},
		{"dtmc\nformula f = x ≤ 1;", "2:15: unexpected \"≤\" (U+2264 LESS-THAN OR EQUAL TO): it looks like \"<=\" — write <="},
		{"dtmc\nformula f = x\xff;", "2:14: invalid UTF-8 (byte 0xff): a PRISM file must be UTF-8 text"},
		{"dtmc\x00", "1:5: the file contains NUL bytes: it is not a PRISM text file"},
		{"dtmc\nmodule m\n  x : int;\nendmodule", "3:7: unbounded variables (x : int) are not supported: give a range, x : [lo..hi]"},
		{"dtmc\nmodule m2 = m [ x=y endmodule", "2:21: unexpected \"endmodule\" (expected \",\" or \"]\")"},
		{"dtmc\ninit true endinit\ninit false endinit", "3:1: a second init … endinit block: the first is at line 2"},
		{"dtmc\nmodule m\n  [a b] true -> true;\nendmodule", "3:6: unexpected \"b\" (expected \"]\" (a command starts with [] or [action]))"},
		{"dtmc\nrewards \"r\"\n  true : 1;\n", "4:1: unexpected end of file (expected a reward item \"guard : reward;\" or \"endrewards\")"},
		{"dtmc\nmodule m\n  x : [0..1];\n  [] x=0 -> (x'=1) & true;\nendmodule", "4:22: unexpected \"true\" (expected an update (x'=…))"},
		{"dtmc\nmodule m\n  x : [0..1];\n  [] x=0 -> ;\nendmodule", "4:13: unexpected \";\" (expected the updates: p : (x'=…) + …, (x'=…) or true)"},
		{"dtmc\nmodule m\n  init : bool;\nendmodule", "3:3: init is a PRISM keyword and cannot name a variable"},
		{"dtmc\nmodule m\n  [] true -> (init'=1);\nendmodule", "3:15: init is a PRISM keyword and cannot name a variable"},
		{"dtmc\nconst int N = ;", "2:15: unexpected \";\" (expected the value of the constant)"},
		{"dtmc\r\nmodule m\r\n\tx : [0..1]\r\nendmodule\r\n", "4:1: unexpected \"endmodule\" (expected \"init\" or \";\")"},
		{"dtmc\r\nmodule m\r\n\t[] x=0 -> 0.5 : (x'=1) +\r\n\t\t0.5 (x'=0);\r\nendmodule\r\n", "4:7: unexpected \"(\" (expected \":\" after the probability of an update)"},
		{"dtmc\nformula f = x + + 1;", "2:17: unexpected \"+\" (expected an expression)"},
		{"dtmc\nformula f = min 1;", "2:13: min is a function: min(a, b, …)"},
		{"dtmc\nlabel \"x = 1;", "2:7: string not terminated: a quoted name ends with \" on the same line"},
		{"dtmc\nformula f = func(foo, 1);", "2:18: unknown function foo (PRISM's functions: ceil, floor, log, max, min, mod, pow, round)"},
		{"dtmc\nmodule 3 endmodule", "2:8: unexpected \"3\" (expected a module name)"},
		{"dtmc\nformula f = 1 ° 2;", "2:15: unexpected \"°\" (U+00B0 DEGREE SIGN)"},
		{"dtmc\nmodule m\n  x : [0..1];\n  [] x=0 -> (x'=1);\nendmodule\nendmodule", "6:1: unexpected \"endmodule\" (expected a model type (dtmc, mdp), const, formula, label, global, module, rewards or init)"},
	}
	for _, tc := range tests {
		m, err := prism.ParseModel("t.pm", tc.src)
		if err == nil {
			t.Errorf("%q parses: %+v", tc.src, m)
			continue
		}
		if got := errorOf(t, "t.pm", err); got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", trunc(tc.src), got, tc.want)
		}
	}
}

// TestPropertyErrors: the same for properties files.
func TestPropertyErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"R{\"r\"}=5 [ F b ]", "1:8: R=p is not a PRISM property: write R=? [ρ] for the expected reward, or a bound such as R>=p [ρ]"},
		{"R=? [ I ]", "1:9: unexpected \"]\" (expected \"=\" and a time: I=k)"},
		{"R{\"r\" [ C ]", "1:7: unexpected \"[\" (expected \"}\")"},
		{"S=0.5 [ a ]", "1:3: S=p is not a PRISM property: write S=? [φ] for the long-run probability, or a bound such as S>=p [φ]"},
		{"S [ a ]", "1:3: unexpected \"[\" (expected \"=?\" or a bound such as \">=0.5\" after S: S=? [φ], S>=0.5 [φ])"},
		{"E [ F a", "1:8: unexpected end of file (expected \"]\")"},
		{"P=? [ F s=2^3^2 ]", "1:12: write (a^b)^c or a^(b^c): dpcheck does not guess how a chain of powers groups"},
		{"P=? [ F s=-2^2 ]", "1:11: write -(a^b) or (-a)^b: dpcheck does not guess which a minus before a power means"},
		{"multi(P>=0.5 [F a], P>=0.5 [G b])", "1:1: multi-objective properties (multi) are not supported: dpcheck checks P, R, S, D and filter properties one by one"},
		{"P=? [ F[1,2 a ]", "1:13: unexpected \"a\" (expected \"]\")"},
		{"P=? [ F[1 a ]", "1:11: unexpected \"a\" (expected \",\" and the upper bound: [a,b])"},
		{"P=? [ X<=2 a ]", "1:8: X takes no time bound: write X X … for several steps"},
		{"P=0.5 [ F a ]", "1:3: P=p is not a PRISM property: write P=? [ψ] for the probability, or a bound such as P>=p [ψ]"},
		{"P [ F a ]", "1:3: unexpected \"[\" (expected \"=?\" or a bound such as \">=0.5\" after P: P=? [ψ], P>=0.5 [ψ])"},
		{"P=? [ F a & F b ]", "1:13: F must be parenthesised here: a path operator takes everything after it, so write e.g. (F a) & (F b)"},
		{"P=? [ a U b U c ]", "1:13: U does not chain: add parentheses, e.g. a U (b U c)"},
		{"P=? [ a W b R c ]", "1:13: R does not chain: add parentheses, e.g. a R (b R c)"},
		{"F a", "1:1: F is a path operator: it can only appear inside P…[…] or D{…}[…] in a property"},
		{"X X a", "1:1: X is a path operator: it can only appear inside P…[…] or D{…}[…] in a property"},
		{"D{1}[X a]", "1:4: D needs both ε and δ: write D{ε, δ}[ψ], e.g. D{1, 0}[X \"out\"]"},
		{"D{1, 0}[X a", "1:12: unexpected end of file (expected \"]\")"},
		{"D{1, 0}(X a)", "1:8: unexpected \"(\" (expected \"[\")"},
		{"filter(foo, a)", "1:8: unknown filter operator foo (filter operators: min, max, argmin, argmax, count, sum, +, avg, first, range, forall, &, exists, |, print, printall, state)"},
		{"filter(forall a)", "1:15: unexpected \"a\" (expected \",\" and the formula: filter(op, φ, states))"},
		{"P=? [ F a ]]", "1:12: unexpected \"]\" (expected a property, const, label or formula)"},
		{"P=? [ F \"a-b\" ]", "1:9: \"a-b\" is not a valid label name: write an identifier in double quotes, such as \"done\""},
		{"P=? [ F ]", "1:9: unexpected \"]\" (expected the operand of F)"},
		{"Pmin=0.5 [ F a ]", "1:6: Pmin=p is not a PRISM property: write Pmin=? [ψ]"},
		{"P=? [ F a {\"init\"}{mid} ]", "1:20: unexpected \"mid\" (expected min or max: {min}, {max})"},
		{"P=? [ " + strings.Repeat("X ", 1001) + "a ]", "1:2005: expression nested deeper than 1000 levels"},
		{strings.Repeat("P=? [ ", 1001) + "a", "1:6001: expression nested deeper than 1000 levels"},
		{"P=? [ F " + strings.Repeat("!", 1001) + "a ]", "1:1007: expression nested deeper than 1000 levels"},
		{"dtmc\nmodule m endmodule", "1:1: unexpected \"dtmc\" (expected a property, const, label or formula)"},
		{"?", "1:1: unexpected \"?\" (expected a property, const, label or formula)"},
		{"P=? [ F a ]\n/* unfinished", "2:1: comment not terminated: /* has no matching */"},
		{"\"p\": ", "1:6: unexpected end of file (expected a property, const, label or formula)"},
		{"P=? [ F<=k ]", "1:12: unexpected \"]\" (expected the operand of F)"},
		{"P>=0.5 [ F a ] U b", "1:16: unexpected \"U\" (expected an expression)"},
		{"const int k\nP=? [ F a ]", "2:1: unexpected \"P\" (expected \"=\" or \";\")"},
		{"P=? [ F x' = 1 ]", "1:9: x' (a primed variable) only appears on the left of an update: (x'=…)"},
		{"C<=5", "1:1: C is a path of a reward property: write R=? [C<=k]"},
		{"P=? [ F a ];\nRmin=5 [ F b ]", "2:6: Rmin=r is not a PRISM property: write Rmin=? [ρ]"},
		{"P=? [ F a\"b\" ]", "1:10: unexpected quoted name \"b\" (expected \"]\")"},
	}
	for _, tc := range tests {
		f, err := prism.ParseProperties("t.pctl", tc.src)
		if err == nil {
			// A property of a kind dpcheck does not support parses,
			// refused on its own: the others are checked.
			var refused []string
			for _, p := range f.Props {
				if p.Refused != nil {
					pos := f.Position(p.Refused.Off)
					refused = append(refused, fmt.Sprintf("%d:%d: %s", pos.Line, pos.Column, p.Refused.Msg))
				}
			}
			if got := strings.Join(refused, "\n"); got != tc.want {
				t.Errorf("%q parses, refused:\n got %s\nwant %s", trunc(tc.src), got, tc.want)
			}
			continue
		}
		if got := errorOf(t, "t.pctl", err); got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", trunc(tc.src), got, tc.want)
		}
	}
}

func trunc(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
