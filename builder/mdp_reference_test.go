package builder_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/internal/reference"
	"github.com/dpcheck/dpcheck/model"
	"github.com/google/go-cmp/cmp"
)

// builderMDPDump writes every state's moves, "state [action]: target=p …" with
// targets sorted, states named by rename, a "*" action for a state that
// moves alike under every action; and the pairs.
func builderMDPDump(m *model.Mechanism, rename func(string) string) []string {
	c := m.Chain
	var out []string
	for s, chs := range m.MDP.Choices {
		rows := map[string]string{}
		for _, ch := range chs {
			var ts []string
			for i, t := range ch.To {
				ts = append(ts, rename(c.Name(t))+"="+ch.P[i].RatString())
			}
			sort.Strings(ts)
			rows[m.MDP.Actions[ch.Action]] = strings.Join(ts, " ")
		}
		out = append(out, collapse(rename(c.Name(s)), m.MDP.Actions, rows)...)
	}
	for _, p := range m.Neighbours {
		out = append(out, rename(c.Name(p[0]))+" ~ "+rename(c.Name(p[1])))
	}
	sort.Strings(out)
	return out
}

func referenceMDPDump(m *reference.MDP, pairs [][2]int) []string {
	var out []string
	for s, mvs := range m.Moves {
		rows := map[string]string{}
		for a, mv := range mvs {
			var ts []string
			for i, t := range mv.To {
				ts = append(ts, m.Names[t]+"="+mv.P[i].RatString())
			}
			sort.Strings(ts)
			if len(mvs) == 1 {
				for _, name := range m.Actions {
					rows[name] = strings.Join(ts, " ")
				}
				continue
			}
			rows[m.Actions[a]] = strings.Join(ts, " ")
		}
		out = append(out, collapse(m.Names[s], m.Actions, rows)...)
	}
	for _, p := range pairs {
		out = append(out, m.Names[p[0]]+" ~ "+m.Names[p[1]])
	}
	sort.Strings(out)
	return out
}

// collapse writes a state's rows, one "*" row when every action has the
// same.
func collapse(state string, actions []string, rows map[string]string) []string {
	if len(rows) == 0 {
		return []string{state + " absorbing"}
	}
	same := len(rows) == len(actions)
	for _, a := range actions {
		same = same && rows[a] == rows[actions[0]]
	}
	if same {
		return []string{state + " [*]: " + rows[actions[0]]}
	}
	var out []string
	for a, row := range rows {
		out = append(out, state+" ["+a+"]: "+row)
	}
	return out
}

// TestMDPBuildersAgreeWithReference: the catalog's MDPs are, state by
// state and action by action, internal/reference's independent encodings
// of the paper's models (the survey's states after i < q answers keep x in
// the name: pos_YN, neg_YN).
func TestMDPBuildersAgreeWithReference(t *testing.T) {
	for q := 1; q <= 4; q++ {
		m, err := builder.InteractiveSurvey(q)
		if err != nil {
			t.Fatal(err)
		}
		ref, pairs := reference.InteractiveSurveyMDP(q)
		rename := func(s string) string {
			if s == "pos" || s == "neg" {
				return s + "_"
			}
			return s
		}
		got := builderMDPDump(m, rename)
		// The final states, the others' rows by action, the pair.
		if want := 1<<q + (2<<q-2)*2 + 1; len(got) != want {
			t.Errorf("interactive_survey(questions = %d): %d lines, want %d", q, len(got), want)
		}
		if diff := cmp.Diff(referenceMDPDump(ref, pairs), got); diff != "" {
			t.Errorf("interactive_survey(questions = %d) (-reference +builder):\n%s", q, diff)
		}
	}
	for _, tt := range []struct {
		at, aq string
		n      int
		cmp    builder.Comparison
		// top, the ⊥ states' rows by action (one row for the two that
		// always halt, ">=" at T = 0, or never, ">" at T = n), the inputs'
		// rows, the pairs.
		lines int
	}{
		{"1/4", "1/2", 5, builder.AtLeast, 1 + 10*16 + 2 + 72 + 96},
		{"1/4", "1/2", 5, builder.Above, 1 + 10*16 + 2 + 72 + 96},
		{"2/3", "1/3", 3, builder.AtLeast, 1 + 6*10 + 2 + 32 + 40},
	} {
		m, err := builder.AboveThresholdMDP(r(tt.at), r(tt.aq), tt.n, tt.cmp)
		if err != nil {
			t.Fatal(err)
		}
		ref, pairs := reference.ThresholdMDP(r(tt.at), r(tt.aq), tt.n, tt.cmp == builder.Above)
		rename := func(s string) string {
			var i, a, b int
			if _, err := fmt.Sscanf(s, "role%d_t%d_r%d", &i, &a, &b); err == nil {
				return fmt.Sprintf("(%d,%d,%d)", i, a, b)
			}
			if _, err := fmt.Sscanf(s, "role%d_T%d_bot", &i, &a); err == nil {
				return fmt.Sprintf("(%d,%d,bot)", i, a)
			}
			return s
		}
		got := builderMDPDump(m, rename)
		if len(got) != tt.lines {
			t.Errorf("above_threshold_mdp(%s, %s, %d, %s): %d lines, want %d", tt.at, tt.aq, tt.n, tt.cmp, len(got), tt.lines)
		}
		if diff := cmp.Diff(referenceMDPDump(ref, pairs), got); diff != "" {
			t.Errorf("above_threshold_mdp(%s, %s, %d, %s) (-reference +builder):\n%s", tt.at, tt.aq, tt.n, tt.cmp, diff)
		}
		if !cmp.Equal(ref.Actions, m.MDP.Actions) {
			t.Errorf("actions %v, reference %v", m.MDP.Actions, ref.Actions)
		}
	}
}
