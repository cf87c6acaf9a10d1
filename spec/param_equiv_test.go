package spec_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParamEquivalenceErrors: every misuse of check equivalent(…) for a
// parameter gets its exact message at its exact position.
func TestParamEquivalenceErrors(t *testing.T) {
	const geo = "param alpha in (0, 1)\nmodel truncated_geometric(alpha = alpha, n = 5)\n"
	const yar = "yarrow_geometric(alpha = alpha, count_max = 5)"
	const uses = paramUsesWant
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"missing for", geo + "check equivalent(model, " + yar + ")", []string{"3:1: the file has a parameter: add for alpha to decide this statement for every alpha in (0, 1)"}},
		{"another parameter", geo + "check equivalent(model, " + yar + ") for theta", []string{"3:77: unknown parameter theta: the file's parameter is alpha"}},
		{"for without a parameter", "check equivalent(survey(), survey()) for alpha", []string{"1:42: for alpha needs a parameter: declare it with param alpha in (0, 1) and use it as a builder argument"}},
		{"neither model has the parameter", geo + "check equivalent(yarrow_geometric(alpha = 1/2, count_max = 5), truncated_geometric(alpha = 1/2, n = 5)) for alpha", []string{"3:7: neither model uses the parameter alpha: write it as an argument of one, such as yarrow_geometric(alpha = alpha, count_max = 5), or compare the models without for alpha in a file without a parameter"}},
		{"argument not supported", geo + "check equivalent(model, yarrow_geometric(alpha = 1/2, count_max = alpha)) for alpha", []string{"3:67: " + uses}},
		{"builder not supported", geo + "check equivalent(model, laplace_decision(alpha = alpha, k = 2, hi = 5)) for alpha", []string{"3:50: " + uses}},
		{"parameter twice in a call", geo + "check equivalent(model, survey(theta1 = alpha, theta2 = alpha)) for alpha", []string{"3:57: " + uses}},
		{"no model of the file", "param alpha in (0, 1)\ncheck equivalent(model, " + yar + ") for alpha", []string{"2:18: model stands for the file's own model, and this file has none (or it has errors)"}},
		{"one argument", geo + "check equivalent(model) for alpha", []string{"3:1: equivalent takes two models: check equivalent(yarrow_geometric(alpha = alpha, count_max = 5), truncated_geometric(alpha = alpha, n = 5)) for alpha"}},
		{"not a model", geo + "check equivalent(model, 3) for alpha", []string{"3:25: the arguments of equivalent must be models, such as survey(), or model for the file's own"}},
		{"inputs do not match", geo + "check equivalent(yarrow_geometric(alpha = alpha, count_max = 4), model) for alpha", []string{"3:7: equivalent(yarrow_geometric(alpha = alpha, count_max = 4), model) cannot be compared: input in=5 of the second model has no counterpart in the first"}},
		{"expect unknown", geo + "check equivalent(model, " + yar + ") for alpha expect unknown", []string{"3:90: a check expects holds or violated"}},
		{"expect a value", geo + "check equivalent(model, " + yar + ") for alpha expect 1/2", []string{"3:90: a check expects holds or violated"}},
		{"interval outside the builder", "param alpha in (0, 2)\ncheck equivalent(" + yar + ", truncated_geometric(alpha = 1/2, n = 5)) for alpha", []string{"2:18: yarrow_geometric(alpha = alpha, count_max = 5) for every alpha in (0, 2): invalid parametric model: state s0: the probability (1 − alpha)/(alpha + 1) of going to k0_zero is not positive at alpha = 1 (nor everywhere in (0, 2))"}},
		{"an MDP", geo + "check equivalent(model, above_threshold_mdp(n = 2)) for alpha", []string{"3:7: check equivalent is not defined on MDPs yet: above_threshold_mdp(n = 2) is an MDP, whose distributions depend on the scheduler"}},
		{"query equivalent", geo + "query equivalent(model, " + yar + ") for alpha", []string{"3:7: equivalent(…) is a yes/no property: write check equivalent(…)"}},
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
