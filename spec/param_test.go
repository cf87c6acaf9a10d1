package spec_test

import (
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/spec"
	"github.com/google/go-cmp/cmp"
)

// paramUsesWant is the error for a use of the parameter where it may not
// appear.
const paramUsesWant = "the parameter alpha can be used only as an argument of above_threshold(alpha_q = …), above_threshold_untruncated(alpha_t = …) or above_threshold_untruncated(alpha_q = …), cutoff_decision(alpha = …), survey(theta1 = …) or survey(theta2 = …), truncated_geometric(alpha = …), untruncated_geometric(alpha = …), and yarrow_geometric(alpha = …), in the probabilities of a chain block, in the update probabilities and the first argument of draws (geometric's alpha, bernoulli's p) of modules, and in ε and δ of check dp, query eps and query delta … for it for now"

// TestParamErrors: every misuse of a parameter gets its exact message at
// its exact position.
func TestParamErrors(t *testing.T) {
	const geo = "param alpha in (0, 1)\nmodel truncated_geometric(alpha = alpha, n = 5)\n"
	uses := paramUsesWant
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"no for", geo + "check dp(eps = ln(2))", []string{"3:1: the file has a parameter: add for alpha to decide this statement for every alpha in (0, 1)"}},
		{"for without param", "model survey()\ncheck dp(eps = ln(3)) for theta", []string{"2:27: for theta needs a parameter: declare it with param theta in (0, 1) and use it as a builder argument"}},
		{"for another name", geo + "check dp(eps = ln(2)) for beta", []string{"3:27: unknown parameter beta: the file's parameter is alpha"}},
		{"unsupported property", geo + "check D{ln(2), 0}[X out_0] for alpha", []string{"3:7: for every alpha only check dp(…), check equivalent(…), query eps(delta = 0), query delta(eps = …) and expected(f) are supported for now"}},
		{"eps not k ln R", geo + "check dp(eps = alpha) for alpha", []string{"3:16: ε for every alpha must be k·ln(R) with R a rational function of alpha (or a number) and k an integer, such as -ln(alpha) or ln(3)"}},
		{"ln of a non-rational", geo + "check dp(eps = ln(|alpha|)) for alpha", []string{"3:19: the argument of ln must be a rational function of alpha (numbers, alpha, + - * / and ^ with an integer exponent)"}},
		{"exponent in alpha", geo + "check dp(eps = ln(2^alpha)) for alpha", []string{"3:21: the argument of ln: the exponent must be an integer, not a function of alpha"}},
		{"eps query at a negative delta", geo + "query eps(delta = alpha - 1/2) for alpha", []string{"3:19: δ = alpha - 1/2 is negative at alpha = 1/3: it must be ≥ 0 for every alpha in (0, 1)"}},
		{"query expects holds", geo + "query eps(delta = 0) for alpha expect holds", []string{"3:39: for every alpha a query expects one function of alpha over the whole interval (query eps(delta = 0) for alpha expect -ln(alpha)), not holds"}},
		{"check expects a value", geo + "check dp(eps = ln(2)) for alpha expect 1/2", []string{"3:40: a check expects holds or violated"}},
		{"query expects a bad eps", geo + "query eps(delta = 0) for alpha expect alpha", []string{"3:39: ε for every alpha must be k·ln(R) with R a rational function of alpha (or a number) and k an integer, such as -ln(alpha) or ln(3)"}},
		{"parameter of another builder", "param a in (0, 1)\nmodel laplace_decision(alpha = a, k = 1, hi = 3)\ncheck dp(eps = ln(2)) for a", []string{"2:32: " + replaceName(uses, "a")}},
		{"parameter as an integer", "param alpha in (0, 1)\nmodel truncated_geometric(alpha = 1/2, n = alpha)\ncheck dp(eps = ln(2)) for alpha", []string{"2:44: " + uses}},
		{"parameter in a constant", "param alpha in (0, 1)\nconst b = alpha\nmodel truncated_geometric(alpha = alpha, n = 5)\ncheck dp(eps = ln(2)) for alpha", []string{"2:11: " + uses}},
		{"parameter twice", "param t in (0, 1)\nmodel survey(theta1 = t, theta2 = t)\ncheck dp(eps = ln(2)) for t", []string{"2:35: " + replaceName(uses, "t")}},
		{"unused parameter", "param alpha in (0, 1)\nmodel survey()\ncheck dp(eps = ln(3)) for alpha", []string{"2:7: the model does not use the parameter alpha: write it as the argument, such as truncated_geometric(alpha = alpha, n = 5)"}},
		{"empty interval", "param alpha in [1, 1/2]\nmodel truncated_geometric(alpha = alpha, n = 5)\ncheck dp(eps = ln(2)) for alpha", []string{"1:17: the interval of alpha is empty: 1 is not below 1/2"}},
		{"two parameters", geo + "param beta in (0, 1)\ncheck dp(eps = ln(2)) for alpha", []string{"3:1: a file has one parameter for now (the first is at line 1)"}},
		{"negative eps", geo + "check dp(eps = ln(2*alpha)) for alpha", []string{"3:16: ε = ln(2*alpha) is negative at alpha = 1/3: it must be ≥ 0 for every alpha in (0, 1)"}},
		{"negative delta", geo + "check dp(eps = ln(2), delta = alpha - 1/2) for alpha", []string{"3:31: δ = alpha - 1/2 is negative at alpha = 1/3: it must be ≥ 0 for every alpha in (0, 1)"}},
		{"delta with a pole", geo + "check dp(eps = ln(2), delta = 1/(alpha - 1/2)^2) for alpha", []string{"3:31: δ = 1/(alpha - 1/2)^2 has a pole at alpha = 1/2: it must be ≥ 0 for every alpha in (0, 1)"}},
		{"chain probability with a pole", pchain("1/(4*alpha - 2)^2", "1 - 1/(4*alpha - 2)^2"), []string{"6:12: the probability 1/(4*alpha - 2)^2 has a pole at alpha = 1/2: it must be positive for every alpha in (0, 1) (the chain's graph must be the same for every alpha)", "6:35: the probability 1 - 1/(4*alpha - 2)^2 has a pole at alpha = 1/2: it must be positive for every alpha in (0, 1) (the chain's graph must be the same for every alpha)"}},
		{"negative eps of a delta query", geo + "query delta(eps = ln(alpha)) for alpha", []string{"3:19: ε = ln(alpha) is negative at alpha = 1/2: it must be ≥ 0 for every alpha in (0, 1)"}},
		{"bad interval bracket", "param alpha in {0, 1}", []string{`1:16: unexpected "{" (expected an interval such as (0, 1), [0, 1], (0, 1] or [0, 1))`}},
		{"neighbours with a parameter: an unknown variable", geo + "neighbours |d - d'| <= 1\ncheck dp(eps = ln(2)) for alpha", []string{"3:13: unknown variable d (variables: in, out)"}},
		{"explicit files with a parameter", "param alpha in (0, 1)\nmodel explicit(\"m.tra\", \"m.lab\")\ncheck dp(eps = ln(2)) for alpha", []string{"2:1: with a parameter the model must be a builder (above_threshold(alpha_q = …), above_threshold_untruncated(alpha_t = …) or above_threshold_untruncated(alpha_q = …), cutoff_decision(alpha = …), survey(theta1 = …) or survey(theta2 = …), truncated_geometric(alpha = …), untruncated_geometric(alpha = …), and yarrow_geometric(alpha = …)), a PRISM model, a chain block or modules (explicit files hold numbers, not functions of a parameter)"}},
		{"chain probability not positive", pchain("alpha - 1/2", "3/2 - alpha"), []string{"6:12: the probability alpha - 1/2 is not positive at alpha = 1/2: it must be for every alpha in (0, 1) (the chain's graph must be the same for every alpha)"}},
		{"chain probability zero at an end", strings.Replace(pchain("alpha", "1 - alpha"), "(0, 1)", "[0, 1)", 1), []string{"6:12: the probability alpha is not positive at alpha = 0: it must be for every alpha in [0, 1) (the chain's graph must be the same for every alpha)"}},
		{"chain with an unbounded interval", strings.Replace(pchain("alpha/(1 + alpha)", "1/(1 + alpha)"), "(0, 1)", "(0, ∞)", 1), []string{"1:20: the interval's upper end must be a number, found an ε with ln"}},
		{"chain never absorbed", strings.Replace(pchain("alpha", "1 - alpha"), "}\n", "  c -> c : 1/2, b : 1/2\n  b -> c : 1\n}\n", 1), []string{"2:1: invalid parametric model: from input a the state b is reachable but never reaches an absorbing state (mass never absorbed is not supported)"}},
		{"chain never absorbed from an input of no pair", "param alpha in (0, 1)\nchain {\n  state a [in_a]\n  state b [in_b]\n  state c [in_c]\n  state d\n  state e\n  a -> d : alpha, e : 1 - alpha\n  c -> e : 1\n  e -> c : 1\n}\ninputs a, b, c\nneighbours a ~ b\ncheck equivalent(model, model) for alpha",
			[]string{"2:1: invalid parametric model: from input c the state e is reachable but never reaches an absorbing state (mass never absorbed is not supported)"}},
		{"module never absorbed", pmod("[] true -> alpha : (y' = 1) + 1 - alpha : (y' = 2);"), []string{"2:1: invalid parametric model: from input s0 the state s2 is reachable but never reaches an absorbing state (mass never absorbed is not supported)"}},
		{"chain row not summing to 1", pchain("alpha", "1/2"), []string{"6:3: the probabilities of a sum to alpha + 1/2, not 1 for every alpha"}},
		{"chain without the parameter", pchain("1/2", "1/2"), []string{"2:1: the chain does not use the parameter alpha: write it in a probability, such as a -> b : alpha, c : 1 - alpha"}},
		{"chain with else sink", strings.Replace(pchain("alpha", "1 - alpha"), "c : 1 - alpha", "c : 1/2 - alpha/2 else sink", 1), []string{"6:42: else sink is not supported with the parameter alpha: write the remainder's probability to a state"}},
		{"parameter in a guard", pmod("[] y = 0 & x < alpha -> (y' = 1);"), []string{"5:18: a guard must not depend on the parameter alpha: the chain's graph must be the same for every alpha (it may appear in an update's probability and a draw's first argument)"}},
		{"parameter in an assignment", pmod("[] y = 0 -> alpha : (y' = 1) + 1 - alpha : (y' = 2 * alpha);"), []string{"5:56: an assignment must not depend on the parameter alpha: the chain's graph must be the same for every alpha (it may appear in an update's probability and a draw's first argument)"}},
		{"parameter in a draw's centre", pmod("[] y = 0 -> (y' ~ geometric(alpha, alpha, 0, 2));"), []string{"5:38: the centre of a draw must not depend on the parameter alpha: the chain's graph must be the same for every alpha (it may appear in an update's probability and a draw's first argument)"}},
		{"module probability not positive", pmod("[] y = 0 -> alpha - 1/2 : (y' = 2) + 3/2 - alpha : (y' = 1);"), []string{"5:15: the probability alpha − 1/2 is not positive at alpha = 1/2: it must be for every alpha in (0, 1) (the chain's graph must be the same for every alpha) (command at line 5, at (x=0, y=0))"}},
		{"module probability with a pole", pmod("[] y = 0 -> 1/(6*alpha - 2)^2/16 : (y' = 1) + 1 - 1/(6*alpha - 2)^2/16 : (y' = 2);"), []string{"5:15: the probability (1/576)/(alpha^2 − 2/3·alpha + 1/9) has a pole at alpha = 1/3: it must be positive for every alpha in (0, 1) (the chain's graph must be the same for every alpha) (command at line 5, at (x=0, y=0))"}},
		{"module updates not summing to 1", pmod("[] y = 0 -> alpha : (y' = 2) + 1/2 : (y' = 1);"), []string{"5:3: the probabilities of the updates sum to alpha + 1/2, not 1 (command at line 5, at (x=0, y=0))"}},
		{"draw's alpha not below 1", pmod("[] y = 0 -> (y' ~ geometric(2 * alpha, x, 0, 2));"), []string{"5:21: the α 2·alpha of the draw is not below 1 at alpha = 1/2: it must be for every alpha in (0, 1) (the chain's graph must be the same for every alpha) (command at line 5, at (x=0, y=0))"}},
		{"parameter in a variable's name", strings.Replace(pmod("[] y = 0 -> alpha : (y' = 1) + 1 - alpha : (y' = 2);"), "init 0;", "init 0; alpha : [0..1];", 1), []string{"4:22: alpha is the parameter (line 1); a variable needs its own name"}},
		{"modules without the parameter", pmod("[] y = 0 -> 1/2 : (y' = 1) + 1/2 : (y' = 2);"), []string{"2:1: the modules do not use the parameter alpha: write it in an update's probability or a draw's first argument, such as alpha : (x' = 1) + 1 - alpha : (x' = 0) or (y' ~ geometric(alpha, x, 0, n))"}},
		{"mdp module with the parameter", strings.Replace(pmod("[a] y = 0 -> alpha : (y' = 1) + 1 - alpha : (y' = 2);"), "module m", "mdp module m", 1), []string{"2:1: an mdp module with the parameter alpha is not supported: for every alpha the model is a Markov chain"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := errorsOf(t, tt.src)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// pchain is a chain block with the parameter whose state a goes to b and
// c with the probabilities pb and pc.
func pchain(pb, pc string) string {
	return "param alpha in (0, 1)\nchain {\n  state a [in_a]\n  state b [in_b]\n  state c\n  a -> b : " + pb + ", c : " + pc + "\n}\ninputs a, b\nneighbours a ~ b\ncheck dp(eps = ln(2)) for alpha"
}

// pmod is a module with the parameter and the command cmd (line 5).
func pmod(cmd string) string {
	return "param alpha in (0, 1)\nmodule m\n  input x : [0..1];\n  y : [0..2] init 0;\n  " + cmd + "\nendmodule\nneighbours |x - x'| <= 1\ncheck dp(eps = ln(2)) for alpha"
}

func replaceName(s, name string) string {
	return strings.ReplaceAll(s, "parameter alpha", "parameter "+name)
}

// TestFormatParam: the formatter writes param and for canonically, and
// formatting is idempotent.
func TestFormatParam(t *testing.T) {
	src := "param   alpha in[1/4,1)\nmodel truncated_geometric(alpha=alpha,n=5)\ncheck dp(eps=-ln(alpha),delta=1-alpha)for alpha expect holds\nquery eps(delta=0)  for   alpha\n"
	want := "param alpha in [1/4, 1)\nmodel truncated_geometric(alpha = alpha, n = 5)\ncheck dp(eps = -ln(alpha), delta = 1 - alpha) for alpha expect holds\nquery eps(delta = 0) for alpha\n"
	got, err := spec.Format("t.dp", src)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Format (-want +got):\n%s", diff)
	}
	again, err := spec.Format("t.dp", got)
	if err != nil || again != got {
		t.Errorf("formatting twice: %q, %v", again, err)
	}
}
