package builder_test

import (
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/model"
	"github.com/google/go-cmp/cmp"
)

// choiceRow returns the choice of action act at the state named from, as
// "target=p" by target name, or fails.
func choiceRow(t *testing.T, m *model.Mechanism, from, act string) map[string]string {
	t.Helper()
	c := m.Chain
	s, ok := c.Lookup(from)
	if !ok {
		t.Fatalf("no state %s", from)
	}
	for _, ch := range m.MDP.Choices[s] {
		if m.MDP.Actions[ch.Action] != act {
			continue
		}
		row := map[string]string{}
		for i, to := range ch.To {
			row[c.Name(to)] = ch.P[i].RatString()
		}
		return row
	}
	t.Fatalf("%s enables no %s", from, act)
	return nil
}

// checkFrame checks that every state of the frame is absorbing (a
// probability-1 self-loop), that every choice sums to 1 with positive
// probabilities and that no state enables an action twice; it returns the
// number of choices and of their targets.
func checkFrame(t *testing.T, m *model.Mechanism) (choices, targets int) {
	t.Helper()
	c := m.Chain
	if m.MDP == nil || m.MDP.Frame != c || m.MDP.NumStates() != c.NumStates() {
		t.Fatalf("the MDP's frame is not the mechanism's chain")
	}
	for s := range c.NumStates() {
		to, p := c.Row(s)
		if len(to) != 1 || to[0] != s || p[0].Cmp(big.NewRat(1, 1)) != 0 {
			t.Errorf("frame state %s is not a probability-1 self-loop: %v %v", c.Name(s), to, p)
		}
		seen := map[int]bool{}
		for _, ch := range m.MDP.Choices[s] {
			if seen[ch.Action] {
				t.Errorf("%s enables %s twice", c.Name(s), m.MDP.Actions[ch.Action])
			}
			seen[ch.Action] = true
			sum := new(big.Rat)
			for _, x := range ch.P {
				if x.Sign() <= 0 {
					t.Errorf("%s [%s]: probability %s", c.Name(s), m.MDP.Actions[ch.Action], x.RatString())
				}
				sum.Add(sum, x)
			}
			if sum.Cmp(big.NewRat(1, 1)) != 0 {
				t.Errorf("%s [%s] sums to %s", c.Name(s), m.MDP.Actions[ch.Action], sum.RatString())
			}
			choices++
			targets += len(ch.To)
		}
	}
	return choices, targets
}

func TestInteractiveSurvey(t *testing.T) {
	m, err := builder.InteractiveSurvey(1)
	if err != nil {
		t.Fatal(err)
	}
	c := m.Chain
	var names []string
	for s := range c.NumStates() {
		names = append(names, c.Name(s)+" "+c.Valuation(s).String()+" "+strings.Join(c.Labels(s), ","))
	}
	want := []string{
		"Y a1=1 done,out_Y,yes_1", "N a1=0 done,no_1,out_N",
		"pos x=1 in_pos", "neg x=0 in_neg",
	}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("states (-want +got):\n%s", diff)
	}
	if got := m.MDP.Actions; !cmp.Equal(got, []string{"L", "H"}) {
		t.Errorf("actions %v", got)
	}
	if ch, tr := checkFrame(t, m); ch != 4 || tr != 8 {
		t.Errorf("%d choices, %d targets; want 4, 8", ch, tr)
	}
	rows := map[string]map[string]string{
		"pos L": {"Y": "3/4", "N": "1/4"}, "pos H": {"Y": "4/5", "N": "1/5"},
		"neg L": {"Y": "1/4", "N": "3/4"}, "neg H": {"Y": "1/5", "N": "4/5"},
	}
	for k, want := range rows {
		from, act, _ := strings.Cut(k, " ")
		if diff := cmp.Diff(want, choiceRow(t, m, from, act)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", k, diff)
		}
	}
	pos, _ := c.Lookup("pos")
	neg, _ := c.Lookup("neg")
	if !cmp.Equal(m.Neighbours, [][2]int{{pos, neg}}) || !cmp.Equal(c.Inputs(), []int{pos, neg}) {
		t.Errorf("neighbours %v, inputs %v", m.Neighbours, c.Inputs())
	}

	m, err = builder.InteractiveSurvey(2)
	if err != nil {
		t.Fatal(err)
	}
	c = m.Chain
	if c.NumStates() != 10 {
		t.Errorf("%d states, want 3·2² − 2 = 10", c.NumStates())
	}
	if ch, tr := checkFrame(t, m); ch != 12 || tr != 24 {
		t.Errorf("%d choices, %d targets; want 12, 24", ch, tr)
	}
	for _, tt := range []struct {
		from, act string
		want      map[string]string
	}{
		{"pos", "H", map[string]string{"pos_Y": "4/5", "pos_N": "1/5"}},
		{"neg", "L", map[string]string{"neg_Y": "1/4", "neg_N": "3/4"}},
		{"pos_Y", "H", map[string]string{"YY": "4/5", "YN": "1/5"}},
		{"neg_N", "L", map[string]string{"NY": "1/4", "NN": "3/4"}},
		{"neg_Y", "H", map[string]string{"YY": "1/5", "YN": "4/5"}},
	} {
		if diff := cmp.Diff(tt.want, choiceRow(t, m, tt.from, tt.act)); diff != "" {
			t.Errorf("%s [%s] (-want +got):\n%s", tt.from, tt.act, diff)
		}
	}
	for name, want := range map[string]string{
		"YN":    "a1=1, a2=0 done,no_2,out_N,yes_1",
		"neg_Y": "x=0, a1=1 out_Y,yes_1",
	} {
		s, _ := c.Lookup(name)
		if got := c.Valuation(s).String() + " " + strings.Join(c.Labels(s), ","); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if yn, _ := c.Lookup("YN"); m.MDP.Choices[yn] != nil {
		t.Errorf("the final state YN has choices")
	}
}

func TestAboveThresholdMDP(t *testing.T) {
	m, err := builder.AboveThresholdMDP(r("1/4"), r("1/2"), 5, builder.AtLeast)
	if err != nil {
		t.Fatal(err)
	}
	c := m.Chain
	// top, 2·6 ⊥ states, 2·36 inputs.
	if c.NumStates() != 85 || len(c.Inputs()) != 72 {
		t.Errorf("%d states, %d inputs; want 85, 72", c.NumStates(), len(c.Inputs()))
	}
	wantActs := []string{"m0n0", "m0n1", "m1n0", "m1n1", "m1n2", "m2n1", "m2n2", "m2n3",
		"m3n2", "m3n3", "m3n4", "m4n3", "m4n4", "m4n5", "m5n4", "m5n5"}
	if diff := cmp.Diff(wantActs, m.MDP.Actions); diff != "" {
		t.Errorf("actions (-want +got):\n%s", diff)
	}
	// Every state but top enables the 16 actions. A ⊥ state with T = 0
	// always halts (one target), the others halt or stay (two); an input
	// never reaches T = 0's ⊥ state (a noisy answer is always >= 0): six
	// targets.
	if ch, tr := checkFrame(t, m); ch != 84*16 || tr != 2*16*(1+5*2)+72*16*6 {
		t.Errorf("%d choices, %d targets; want %d, %d", ch, tr, 84*16, 2*16*(1+5*2)+72*16*6)
	}
	if len(m.Neighbours) != 6*16 {
		t.Errorf("%d pairs, want 96", len(m.Neighbours))
	}
	for _, p := range m.Neighbours {
		a, b := c.Valuation(p[0]), c.Valuation(p[1])
		ra, _ := a.Get("role")
		rb, _ := b.Get("role")
		ta, _ := a.Get("t")
		tb, _ := b.Get("t")
		ma, _ := a.Get("r")
		mb, _ := b.Get("r")
		if ra != 0 || rb != 1 || ta != tb || ma-mb > 1 || mb-ma > 1 {
			t.Errorf("pair %s ~ %s", c.Name(p[0]), c.Name(p[1]))
		}
	}
	// The paper's tables: threshold t = 3 gives T = 0..5 with 1/80, 3/80,
	// 3/20, 3/5, 3/20, 1/20; an answer around 5 is 0..5 with 1/48, 1/48,
	// 1/24, 1/12, 1/6, 2/3, and around 4 with 1/24, 1/24, 1/12, 1/6, 1/3,
	// 1/3. From (0, 3, 5) the first answer is below T = 1 with 1/48, T = 2
	// with 1/24, T = 3 with 1/12, T = 4 with 1/6 and T = 5 with 1/3:
	// ⊥ with T = 1: 3/80·1/48 = 1/1280, T = 2: 3/20·1/24 = 1/160, T = 3:
	// 3/5·1/12 = 1/20, T = 4: 3/20·1/6 = 1/40, T = 5: 1/20·1/3 = 1/60;
	// they sum to 379/3840, and ⊤ has 3461/3840.
	from5 := map[string]string{
		"top": "3461/3840", "role0_T1_bot": "1/1280", "role0_T2_bot": "1/160",
		"role0_T3_bot": "1/20", "role0_T4_bot": "1/40", "role0_T5_bot": "1/60",
	}
	for _, act := range []string{"m0n0", "m5n4", "m3n2"} {
		if diff := cmp.Diff(from5, choiceRow(t, m, "role0_t3_r5", act)); diff != "" {
			t.Errorf("role0_t3_r5 [%s] (-want +got):\n%s", act, diff)
		}
	}
	// From (1, 3, 4): twice the ⊥ mass of r = 5, 379/1920.
	if diff := cmp.Diff(map[string]string{
		"top": "1541/1920", "role1_T1_bot": "1/640", "role1_T2_bot": "1/80",
		"role1_T3_bot": "1/10", "role1_T4_bot": "1/20", "role1_T5_bot": "1/30",
	}, choiceRow(t, m, "role1_t3_r4", "m1n1")); diff != "" {
		t.Errorf("role1_t3_r4 (-want +got):\n%s", diff)
	}
	// At a ⊥ state with T = 3, "m5n4" answers around 5 in role 0 (at least
	// 3 with 1/12 + 1/6 + 2/3 = 11/12) and around 4 in role 1 (1/6 + 1/3 +
	// 1/3 = 5/6).
	for _, tt := range []struct {
		from, act string
		want      map[string]string
	}{
		{"role0_T3_bot", "m5n4", map[string]string{"top": "11/12", "role0_T3_bot": "1/12"}},
		{"role1_T3_bot", "m5n4", map[string]string{"top": "5/6", "role1_T3_bot": "1/6"}},
		{"role0_T5_bot", "m0n1", map[string]string{"top": "1/48", "role0_T5_bot": "47/48"}},
		{"role1_T5_bot", "m0n1", map[string]string{"top": "1/24", "role1_T5_bot": "23/24"}},
		{"role1_T0_bot", "m2n3", map[string]string{"top": "1"}},
	} {
		if diff := cmp.Diff(tt.want, choiceRow(t, m, tt.from, tt.act)); diff != "" {
			t.Errorf("%s [%s] (-want +got):\n%s", tt.from, tt.act, diff)
		}
	}
	top, _ := c.Lookup("top")
	if m.MDP.Choices[top] != nil || !c.HasLabel(top, "top") {
		t.Errorf("top: choices %v, labels %v", m.MDP.Choices[top], c.Labels(top))
	}

	// With ">" a ⊥ state with T = 5 never halts, and T = 0's is reached.
	m, err = builder.AboveThresholdMDP(r("1/4"), r("1/2"), 5, builder.Above)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"role0_T5_bot": "1"}, choiceRow(t, m, "role0_T5_bot", "m5n5")); diff != "" {
		t.Errorf("> at T = 5 (-want +got):\n%s", diff)
	}
	// Pr[noisy answer around 0 <= 0] = 2/3, and T = 0 from t = 0 has 4/5.
	if got := choiceRow(t, m, "role0_t0_r0", "m0n0")["role0_T0_bot"]; got != "8/15" {
		t.Errorf("> from (0, 0, 0) to T = 0's ⊥: %s, want 8/15", got)
	}
}

func TestMDPBuilderParams(t *testing.T) {
	second := func(_ *model.Mechanism, err error) error { return err }
	for _, tt := range []struct {
		err  error
		want string
	}{
		{second(builder.InteractiveSurvey(0)), "interactive_survey: parameter questions must be between 1 and 16, got 0"},
		{second(builder.InteractiveSurvey(17)), "interactive_survey: parameter questions must be between 1 and 16, got 17"},
		{second(builder.AboveThresholdMDP(r("1"), r("1/2"), 5, builder.AtLeast)), "above_threshold_mdp: parameter alpha_t must be in (0, 1), got 1"},
		{second(builder.AboveThresholdMDP(r("1/4"), r("0"), 5, builder.AtLeast)), "above_threshold_mdp: parameter alpha_q must be in (0, 1), got 0"},
		{second(builder.AboveThresholdMDP(r("1/4"), r("1/2"), 41, builder.AtLeast)), "above_threshold_mdp: parameter n must be between 1 and 40, got 41"},
	} {
		var pe *builder.ParamError
		if tt.err == nil || tt.err.Error() != tt.want || !errors.As(tt.err, &pe) {
			t.Errorf("got %v, want %q", tt.err, tt.want)
		}
	}
	// The size estimates are exact for the survey and bound the MDP above
	// threshold (the catalog refuses n = 40 before building anything).
	for _, tt := range []struct {
		call string
		l    model.Limits
		want string
	}{
		{"interactive_survey(questions = 3)", model.Limits{MaxStates: 21}, "interactive_survey would have about 22 states; the limit is 21 states"},
		{"interactive_survey(questions = 3)", model.Limits{MaxTransitions: 77}, "interactive_survey would have about 78 transitions; the limit is 77 transitions"},
		{"interactive_survey(questions = 3)", model.Limits{MaxStates: 22, MaxTransitions: 78}, ""},
		{"above_threshold_mdp(n = 40)", model.Limits{}, "above_threshold_mdp would have about 17,108,973 transitions; the limit is 10,000,000 transitions"},
		{"above_threshold_mdp()", model.Limits{MaxStates: 84}, "above_threshold_mdp would have about 85 states; the limit is 84 states"},
	} {
		_, _, m, err := call(t, tt.call, tt.l)
		var le *model.LimitError
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.call, err)
		case tt.want == "" && m == nil:
			t.Errorf("%s: no mechanism", tt.call)
		case tt.want != "" && (err == nil || err.Error() != tt.want || !errors.As(err, &le)):
			t.Errorf("%s: got %v, want %q", tt.call, err, tt.want)
		}
	}
	_, _, m, err := call(t, "interactive_survey(questions = 3)", model.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	ch, tr := checkFrame(t, m)
	if m.Chain.NumStates() != 22 || m.Chain.NumStates()+tr != 78 || ch != 28 {
		t.Errorf("%d states, %d targets, %d choices; want 22, 56, 28", m.Chain.NumStates(), tr, ch)
	}
}
