package report

import (
	"bytes"
	"context"
	"flag"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/mdp"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/verify"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// mdpModel is a model whose mechanism is a hand-built MDP.
type mdpModel struct {
	call  string
	m     *mdp.MDP
	pairs [][2]int
}

func (mm *mdpModel) Info() property.ModelInfo {
	return property.ModelInfo{Kind: "builder", Name: mm.call, Call: mm.call + "()"}
}

func (mm *mdpModel) Build(context.Context, model.Limits) (*model.Mechanism, error) {
	return &model.Mechanism{Chain: mm.m.Frame, Neighbours: mm.pairs, Note: "an MDP built by hand", MDP: mm.m}, nil
}

func rat(a, b int64) *big.Rat { return big.NewRat(a, b) }

// handMDP builds an MDP: states (name, labels...), inputs, and per state
// its choices as action → (successor, probability)... pairs.
func handMDP(t *testing.T, call string, states [][]string, inputs []string, actions []string,
	choices map[string]map[string][]any, pairs [][2]string) *mdpModel {
	t.Helper()
	b := chain.NewBuilder()
	id := map[string]int{}
	for _, s := range states {
		id[s[0]] = b.AddState(s[0], nil, s[1:]...)
	}
	for _, in := range inputs {
		b.MarkInput(id[in])
	}
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	ch := make([][]mdp.Choice, c.NumStates())
	for a, act := range actions {
		for _, s := range states {
			succ, ok := choices[s[0]][act]
			if !ok {
				continue
			}
			var cc mdp.Choice
			cc.Action = a
			for i := 0; i < len(succ); i += 2 {
				cc.To = append(cc.To, id[succ[i].(string)])
				cc.P = append(cc.P, succ[i+1].(*big.Rat))
			}
			ch[id[s[0]]] = append(ch[id[s[0]]], cc)
		}
	}
	m, err := mdp.New(c, actions, ch)
	if err != nil {
		t.Fatal(err)
	}
	var ps [][2]int
	for _, p := range pairs {
		ps = append(ps, [2]int{id[p[0]], id[p[1]]})
	}
	return &mdpModel{call: call, m: m, pairs: ps}
}

// program is a hand-written program: its source's lines are the
// statements' texts, from line 2 (line 1 is the model).
type program struct {
	t     *testing.T
	lines []string
	sts   []property.Statement
}

func (p *program) pos() source.Position {
	return source.Position{Filename: "f", Line: len(p.lines) + 2, Column: 1}
}

func (p *program) head(text string, k property.ExpectKind, expect string) property.Header {
	h := property.Header{Pos: p.pos(), Text: text, Expect: property.Expectation{Kind: k, Text: expect, Pos: p.pos()}}
	p.lines = append(p.lines, text)
	return h
}

func (p *program) add(st property.Statement) { p.sts = append(p.sts, st) }

func (p *program) label(l string) *property.Formula {
	return &property.Formula{Op: verify.OpLabel, Label: l, Pos: p.pos(), Text: l}
}

func (p *program) x(l string) *property.Formula {
	return &property.Formula{Op: verify.OpNext, K: 1, Args: []*property.Formula{p.label(l)}, Pos: p.pos(), Text: "X " + l}
}

func (p *program) f(l string) *property.Formula {
	return property.Eventually(p.label(l), 0, -1, p.pos(), "F "+l)
}

func (p *program) d(eps exact.Eps, text string, path *property.Formula) *property.Formula {
	return &property.Formula{Op: verify.OpDP, Eps: eps, Delta: rat(0, 1), Args: []*property.Formula{path}, Pos: p.pos(),
		Text: "D{" + text + ", 0}[" + path.Text + "]"}
}

func (p *program) prob(cmp string, bound *big.Rat, path *property.Formula) *property.Formula {
	return &property.Formula{Op: verify.OpProb, Cmp: cmp, Bound: bound, Args: []*property.Formula{path}, Pos: p.pos(),
		Text: "P" + cmp + bound.RatString() + "[" + path.Text + "]"}
}

// entry prepares and runs the program over model m, as the file name.
func (p *program) entry(name string, m property.Model, cfg dpcheck.Config) Entry {
	t := p.t
	t.Helper()
	src := "model " + m.Info().Call + "\n" + strings.Join(p.lines, "\n") + "\n"
	f := source.NewFile(name, src)
	for _, st := range p.sts {
		h := st.Head()
		h.Pos.Filename, h.Expect.Pos.Filename = name, name
	}
	pp, err := property.Prepare(context.Background(), &property.Program{File: f, Model: m, Statements: p.sts}, cfg.Limits)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cfg.Run(context.Background(), pp)
	if err != nil {
		t.Fatal(err)
	}
	return Entry{File: name, Source: src, Result: res}
}

func lnOf(t *testing.T, x int64) exact.Eps {
	e, err := exact.Ln(rat(x, 1))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// mdpEntries are two files on MDPs: the one-question interactive survey
// (L: truthful with probability 3/4, H: 4/5) and a looping MDP whose D
// can be neither proved nor refuted at s and t, and holds by Proposition
// 2 at u and v.
func mdpEntries(t *testing.T) []Entry {
	survey := handMDP(t, "interactive_survey", [][]string{{"+"}, {"-"}, {"yes", "out_Y"}, {"no", "out_N"}}, []string{"+", "-"}, []string{"L", "H"},
		map[string]map[string][]any{
			"+": {"L": {"yes", rat(3, 4), "no", rat(1, 4)}, "H": {"yes", rat(4, 5), "no", rat(1, 5)}},
			"-": {"L": {"yes", rat(1, 4), "no", rat(3, 4)}, "H": {"yes", rat(1, 5), "no", rat(4, 5)}},
		}, [][2]string{{"+", "-"}})
	l3, l4 := lnOf(t, 3), lnOf(t, 4)
	p := &program{t: t}
	p.add(&property.DPCheck{Header: p.head("check dp(eps = ln(4))", property.ExpectHolds, "holds"), Eps: l4, Delta: rat(0, 1)})
	p.add(&property.DPCheck{Header: p.head("check dp(eps = ln(3))", property.ExpectHolds, "holds"), Eps: l3, Delta: rat(0, 1)})
	p.add(&property.EpsQuery{Header: p.head("query eps(delta = 0) expect ln(4)", property.ExpectValue, "ln(4)"), Delta: rat(0, 1), Expected: l4})
	p.add(&property.DeltaQuery{Header: p.head("query delta(eps = ln(3)) expect 1/5", property.ExpectValue, "1/5"), Eps: l3, Expected: rat(1, 5)})
	p.add(&property.FormulaCheck{Header: p.head("check D{ln(3), 0}[X out_Y] expect violated", property.ExpectViolated, "violated"),
		Formula: p.d(l3, "ln(3)", p.x("out_Y"))})
	h := p.head("check D{ln(4), 0}[F out_Y] & P>=1/5[X out_Y]", property.ExpectHolds, "holds")
	p.add(&property.FormulaCheck{Header: h, Formula: &property.Formula{Op: verify.OpAnd, Pos: h.Pos, Text: "D{ln(4), 0}[F out_Y] & P>=1/5[X out_Y]",
		Args: []*property.Formula{p.d(l4, "ln(4)", p.f("out_Y")), p.prob(">=", rat(1, 5), p.x("out_Y"))}}})
	p.add(&property.FormulaCheck{Header: p.head("check P<=3/4[X out_Y]", property.ExpectHolds, "holds"), Formula: p.prob("<=", rat(3, 4), p.x("out_Y"))})
	p.add(&property.ProbQuery{Header: p.head("query P=?[X out_Y]", property.ExpectNone, ""), Path: p.x("out_Y")})
	p.add(&property.ProbQuery{Header: p.head("query Pmax=?[X out_Y]", property.ExpectNone, ""), Path: p.x("out_Y"), Extreme: "max"})
	p.add(&property.ProbQuery{Header: p.head("query Pmin=?[X out_Y] expect 3/4", property.ExpectValue, "3/4"), Path: p.x("out_Y"), Extreme: "min", ExpectAll: rat(3, 4)})
	p.add(&property.ProbQuery{Header: p.head("query P=?[F out_Y | F out_N] expect 1", property.ExpectValue, "1"), ExpectAll: rat(1, 1),
		Path: property.Eventually(&property.Formula{Op: verify.OpOr, Pos: p.pos(), Text: "out_Y | out_N", Args: []*property.Formula{p.label("out_Y"), p.label("out_N")}}, 0, -1, p.pos(), "F (out_Y | out_N)")})
	p.add(&property.DEpsQuery{Header: p.head("query D{?, 0}[X out_Y] expect ln(4)", property.ExpectValue, "ln(4)"), Path: p.x("out_Y"), Delta: rat(0, 1), Expected: l4})
	p.add(&property.DDeltaQuery{Header: p.head("query D{ln(3), ?}[X out_Y]", property.ExpectNone, ""), Path: p.x("out_Y"), Eps: l3})
	first := p.entry("interactive_survey.dp", survey, dpcheck.Config{})

	loop := handMDP(t, "loop", [][]string{{"s"}, {"t"}, {"m"}, {"u"}, {"v"}, {"yes", "yes"}, {"no", "no"}}, []string{"s", "t", "u", "v"}, []string{"A", "B"},
		map[string]map[string][]any{
			"s": {"A": {"yes", rat(1, 1)}, "B": {"no", rat(1, 1)}},
			"t": {"A": {"m", rat(1, 1)}, "B": {"no", rat(1, 1)}},
			"m": {"A": {"yes", rat(1, 2), "m", rat(1, 2)}, "B": {"yes", rat(1, 2), "m", rat(1, 2)}},
			"u": {"A": {"yes", rat(1, 2), "u", rat(1, 2)}, "B": {"yes", rat(1, 3), "u", rat(2, 3)}},
			"v": {"A": {"yes", rat(1, 4), "v", rat(3, 4)}, "B": {"yes", rat(1, 5), "v", rat(4, 5)}},
		}, [][2]string{{"s", "t"}, {"u", "v"}})
	zero := exact.Eps{}
	q := &program{t: t}
	q.add(&property.FormulaCheck{Header: q.head("check D{0, 0}[F yes] expect unknown", property.ExpectUnknown, "unknown"), Formula: q.d(zero, "0", q.f("yes"))})
	q.add(&property.FormulaCheck{Header: q.head("check D{0, 0}[F yes]", property.ExpectHolds, "holds"), Formula: q.d(zero, "0", q.f("yes"))})
	q.add(&property.DDeltaQuery{Header: q.head("query D{0, ?}[F yes] expect 0", property.ExpectValue, "0"), Path: q.f("yes"), Eps: zero, Expected: rat(0, 1)})
	q.add(&property.DPCheck{Header: q.head("check dp(eps = 0) expect unknown", property.ExpectUnknown, "unknown"), Eps: zero, Delta: rat(0, 1)})
	q.add(&property.EpsQuery{Header: q.head("query eps(delta = 0)", property.ExpectNone, ""), Delta: rat(0, 1)})
	uv := &mdpModel{call: "loop_uv", m: loop.m, pairs: loop.pairs[1:]}
	r := &program{t: t}
	r.add(&property.FormulaCheck{Header: r.head("check D{0, 0}[F yes]", property.ExpectHolds, "holds"), Formula: r.d(zero, "0", r.f("yes"))})
	r.add(&property.DPCheck{Header: r.head("check dp(eps = 0) expect violated", property.ExpectViolated, "violated"), Eps: zero, Delta: rat(0, 1)})
	cfg := dpcheck.Config{MDP: mdp.Options{MaxHorizon: 4}}
	return []Entry{first, q.entry("loop.dp", loop, cfg), r.entry("loop_uv.dp", uv, cfg)}
}

// TestMDPGolden: every rendering of every kind of outcome on an MDP, in
// testdata/golden/mdp_FORMAT.txt (-update rewrites them).
func TestMDPGolden(t *testing.T) {
	entries := stopClocks(mdpEntries(t))
	for _, format := range Formats() {
		var b bytes.Buffer
		if err := Write(&b, format, entries, "test"); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", "golden", "mdp_"+format+".txt")
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (-update writes it)", err)
		}
		if got := b.String(); got != string(want) {
			t.Errorf("%s differs from %s (-update rewrites it):\n%s", format, path, got)
		}
	}
}
