package builder_test

import (
	"crypto/sha256"
	"fmt"
	"strings"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/model"
)

// dump writes m in full and in a canonical form: every state in ID order
// with its valuation, labels and row (targets by name, exact
// probabilities), the MDP's choices when there is one, then the
// neighbours and the note.
func dump(m *model.Mechanism) string {
	c := m.Chain
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d states, %d transitions\n", c.NumStates(), c.NumTransitions())
	for s := range c.NumStates() {
		fmt.Fprintf(&sb, "%s %s %v input=%v:", c.Name(s), c.Valuation(s), c.Labels(s), c.IsInput(s))
		to, p := c.Row(s)
		for i, t := range to {
			fmt.Fprintf(&sb, " %s=%s", c.Name(t), p[i].RatString())
		}
		sb.WriteByte('\n')
	}
	if m.MDP != nil {
		fmt.Fprintf(&sb, "MDP actions %v\n", m.MDP.Actions)
		for s, chs := range m.MDP.Choices {
			for _, ch := range chs {
				fmt.Fprintf(&sb, "%s [%s]:", c.Name(s), m.MDP.Actions[ch.Action])
				for i, t := range ch.To {
					fmt.Fprintf(&sb, " %s=%s", c.Name(t), ch.P[i].RatString())
				}
				sb.WriteByte('\n')
			}
		}
	}
	for _, p := range m.Neighbours {
		fmt.Fprintf(&sb, "%s~%s ", c.Name(p[0]), c.Name(p[1]))
	}
	sb.WriteString("\n" + m.Note + "\n")
	return sb.String()
}

// digest is a short SHA-256 of dump(m).
func digest(m *model.Mechanism) string {
	return fmt.Sprintf("%x", sha256.Sum256([]byte(dump(m))))[:16]
}

// pinned are small models of every catalog builder, written as catalog
// calls, with the exported function that builds the same model and the
// digest of the chain built before builds took a context.
var pinned = []struct {
	call    string
	wrapper func() (*model.Mechanism, error)
	digest  string
}{
	{"survey(theta1 = 1/3, theta2 = 1/4)",
		func() (*model.Mechanism, error) { return builder.Survey(r("1/3"), r("1/4")) },
		"c4f605f79037c53d"},
	{"truncated_geometric(alpha = 1/3, n = 7, sensitivity = 2)",
		func() (*model.Mechanism, error) { return builder.TruncatedGeometricSensitivity(r("1/3"), 7, 2) },
		"ec9efc9cd93e79f9"},
	{"truncated_geometric(alpha = 1/2, n = 6)",
		func() (*model.Mechanism, error) { return builder.TruncatedGeometric(r("1/2"), 6) },
		"4c0314e748c63a97"},
	{`above_threshold(alpha_t = 1/3, alpha_q = 1/2, n = 3, k = 3, cmp = ">")`,
		func() (*model.Mechanism, error) {
			return builder.AboveThreshold(r("1/3"), r("1/2"), 3, 3, builder.Above)
		},
		"babc9a19ce9bea68"}, // b6efd352bb35ce0d before the query states were shared
	{"above_threshold_loop(n = 3)",
		func() (*model.Mechanism, error) {
			return builder.AboveThresholdLoop(r("1/4"), r("1/2"), 3, builder.AtLeast)
		},
		"ce669887c92123e6"}, // 4e3bd38dfab99f0d before the ⊥/⊤ states were shared
	{"untruncated_geometric(alpha = 1/3, n = 5, sensitivity = 2)",
		func() (*model.Mechanism, error) { return builder.UntruncatedGeometric(r("1/3"), 5, 2) },
		"e913c68bbe518897"},
	{`above_threshold_untruncated(alpha_t = 1/3, alpha_q = 1/2, n = 3, k = 3, cmp = ">")`,
		func() (*model.Mechanism, error) {
			return builder.AboveThresholdUntruncated(r("1/3"), r("1/2"), 3, 3, builder.Above)
		},
		"7ba28633ff94aad1"},
	{"randomized_response(theta1 = 1/3, k = 4)",
		func() (*model.Mechanism, error) { return builder.RandomizedResponseK(r("1/3"), 4) },
		"1605a1d4eb366735"},
	{"compose(k = 3, model = survey())",
		func() (*model.Mechanism, error) {
			m, err := builder.Survey(r("1/2"), r("1/2"))
			if err != nil {
				return nil, err
			}
			return builder.Compose(3, m)
		},
		"f5c7e9c173f9b008"},
	{"yarrow_geometric(alpha = 1/2, count_min = -2, count_max = 3, bits = 3)",
		func() (*model.Mechanism, error) { return builder.YarrowGeometric(r("1/2"), -2, 3, 3) },
		"4eccfe7c33174119"}, // b3a77637df36a939 before the clipped draws were shared
	{"laplace_decision(alpha = 1/2, k = 3, lo = -1, hi = 6)",
		func() (*model.Mechanism, error) { return builder.LaplaceDecision(r("1/2"), 3, -1, 6) },
		"59dd039be824b080"},
	{"cutoff_decision(alpha = 2/3, m = 4, hi = 6)",
		func() (*model.Mechanism, error) { return builder.CutoffDecision(r("2/3"), 4, 0, 6) },
		"6597a43d2a43c00c"},
	{"generalized_decision(alpha = 1/2, delta = 1/10, m = 3, hi = 6)",
		func() (*model.Mechanism, error) { return builder.GeneralizedDecision(r("1/2"), r("1/10"), 3, 0, 6) },
		"52432d92a7430d4a"},
	{"interactive_survey(questions = 2)",
		func() (*model.Mechanism, error) { return builder.InteractiveSurvey(2) },
		"df82f816ca7849dd"},
	{`above_threshold_mdp(alpha_t = 1/3, n = 2, cmp = ">")`,
		func() (*model.Mechanism, error) {
			return builder.AboveThresholdMDP(r("1/3"), r("1/2"), 2, builder.Above)
		},
		"6d0d9f763d44f29f"},
	{"streaming_sum(rows = 5, p = 1/3)",
		func() (*model.Mechanism, error) { return builder.StreamingSum(5, r("1/3")) },
		"e8a35b4ae420474e"}, // 7bc00cb238c5b993 before the inputs shared their partial-sum states
}
