package dptest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/big"
	"reflect"
	"slices"
	"strings"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/verify"
)

// Model is what the checks and assertions of this package take: a
// Mechanism written in Go (of any input and output types), or a model of
// dpcheck's own — Builder (a *model.Mechanism), Chain (a chain with its
// neighbours and output space), Source and File (a .dp specification).
// Its one method is unexported: the functions taking a Model are not
// generic, and a Model of one kind is checked like any other.
type Model interface {
	// prepare computes what the checks need: every compared input's
	// (explored) output distribution, and the neighbouring pairs.
	// needPairs asks for an error, before any exploration, when no two
	// inputs are neighbours.
	prepare(ctx context.Context, needPairs bool) (*mdl, error)
}

// mdl is a prepared Model: its inputs in order with their
// distributions, its neighbouring pairs, and the chain the verdicts
// analyse with package verify.
type mdl struct {
	inputs []*modelInput
	// outputs are the display names of the outputs, by output index (a
	// chain model's are filled by fillDists).
	outputs []string
	// pairs are the neighbouring pairs, as indices into inputs.
	pairs   [][2]int
	sampler bool
	budget  Budget

	// A chain model: its chain, neighbours (states) and output space.
	chain      *chain.Chain
	chainPairs [][2]int
	output     verify.Output
	filled     bool // fillDists has run

	// The analysis of the verdicts (analysis): for a Go mechanism, the
	// chain in which input x moves to each explored output with its
	// explored mass and to an absorbing state "unexplored by x" of its
	// own with x's unexplored mass; verify's δ of an ordered pair (x, y)
	// there is H(L_x‖L_y) + u_x, the sound upper bound.
	a *verify.Analysis
	// state is the state of a's chain of each input; byState the inverse.
	state   []int
	byState map[int]int
	// display maps a's output names to what results show (Go mechanisms;
	// nil for chain models, whose names are shown as they are), and
	// unexplored marks the outputs that are an input's unexplored mass.
	display    map[string]string
	unexplored map[string]bool
}

// modelInput is one input of a prepared model.
type modelInput struct {
	name string // as results show it: %v, or a state with its valuation
	key  string // what SameDist matches it on
	// p is the explored distribution by output index, u the unexplored
	// mass (0 for an exact distribution).
	p    map[int]*big.Rat
	u    *big.Rat
	runs int64
	cut  int64
	// depthCut, runsHit and threshold are the Dist's.
	depthCut  int64
	runsHit   bool
	threshold *big.Rat
	// state is a chain model's input state.
	state int
}

// bounded reports whether some input has unexplored mass: verdicts are
// then bounds, sound for every way that mass could fall.
func (m *mdl) bounded() bool {
	return slices.ContainsFunc(m.inputs, func(in *modelInput) bool { return in.u.Sign() > 0 })
}

// analysis returns the analysis the verdicts use, made once.
func (m *mdl) analysis(ctx context.Context) (*verify.Analysis, error) {
	if m.a != nil {
		return m.a, nil
	}
	if m.chain != nil { // verify checks its pairs
		a, err := verify.Analyze(ctx, &verify.Model{Chain: m.chain, Neighbours: m.chainPairs, Output: m.output})
		if err != nil {
			return nil, err
		}
		m.a, m.byState = a, map[int]int{}
		for i, in := range m.inputs {
			m.state = append(m.state, in.state)
			m.byState[in.state] = i
		}
		return a, nil
	}
	if len(m.pairs) == 0 {
		return nil, errNoPairs
	}
	b := chain.NewBuilder()
	m.byState, m.display, m.unexplored = map[int]int{}, map[string]string{}, map[string]bool{}
	for i := range m.inputs {
		s := b.AddState(fmt.Sprintf("i%d", i), nil)
		b.MarkInput(s)
		m.state = append(m.state, s)
		m.byState[s] = i
	}
	outs := make([]int, len(m.outputs))
	for j, name := range m.outputs {
		id := fmt.Sprintf("o%d", j)
		outs[j] = b.AddState(id, nil)
		m.display[id] = name
	}
	for i, in := range m.inputs {
		for j, p := range in.p {
			b.AddTransition(m.state[i], outs[j], p)
		}
		if in.u.Sign() > 0 {
			id := fmt.Sprintf("u%d", i)
			b.AddTransition(m.state[i], b.AddState(id, nil), in.u)
			m.display[id], m.unexplored[id] = "unexplored by "+in.name, true
		}
	}
	c, err := b.BuildContext(ctx)
	if err != nil {
		return nil, err
	}
	pairs := make([][2]int, len(m.pairs))
	for k, p := range m.pairs {
		pairs[k] = [2]int{m.state[p[0]], m.state[p[1]]}
	}
	a, err := verify.Analyze(ctx, &verify.Model{Chain: c, Neighbours: pairs})
	if err != nil {
		return nil, err
	}
	m.a = a
	return a, nil
}

// fillDists computes the distribution of every input of a chain model
// (over all inputs, not only those in pairs) for SameDist.
func (m *mdl) fillDists(ctx context.Context) error {
	if m.chain == nil || m.filled {
		return nil
	}
	ins := m.chain.Inputs()
	if len(ins) < 2 {
		return errors.New("dptest: a chain model needs two inputs")
	}
	var chained [][2]int // every input in some pair, so that each distribution is computed
	for k := 1; k < len(ins); k++ {
		chained = append(chained, [2]int{ins[k-1], ins[k]})
	}
	a, err := verify.Analyze(ctx, &verify.Model{Chain: m.chain, Neighbours: chained, Output: m.output})
	if err != nil {
		return err
	}
	index := map[string]int{}
	for o := range a.NumOutputs() {
		index[a.OutputName(o)] = o
		m.outputs = append(m.outputs, a.OutputName(o))
	}
	for _, in := range m.inputs {
		outs, ps, _ := a.Distribution(in.state)
		in.p = make(map[int]*big.Rat, len(outs))
		for k, o := range outs {
			in.p[index[o]] = ps[k]
		}
	}
	m.filled = true
	return nil
}

// outputName is the display name of an output of a's chain.
func (m *mdl) outputName(o string) string {
	if d, ok := m.display[o]; ok {
		return d
	}
	return o
}

// stateInfo is how results show the input state s of a's chain: a Go
// input by its %v alone.
func (m *mdl) stateInfo(s verify.StateInfo) verify.StateInfo {
	if m.display == nil {
		return s
	}
	return verify.StateInfo{ID: s.ID, Name: m.inputs[m.byState[s.ID]].name}
}

// witness shows w in the model's names, the unexplored-mass outputs left
// out of its event.
func (m *mdl) witness(w *verify.Witness) *verify.Witness {
	if w == nil {
		return nil
	}
	c := *w
	c.From, c.To = m.stateInfo(w.From), m.stateInfo(w.To)
	c.Event = nil
	for _, o := range w.Event {
		if !m.unexplored[o] {
			c.Event = append(c.Event, m.outputName(o))
		}
	}
	return &c
}

// Builder is the Model of a mechanism made by package builder, with its
// own neighbours, observed by its final states. An MDP is refused.
func Builder(m *model.Mechanism) Model { return builderModel{m} }

type builderModel struct{ m *model.Mechanism }

func (b builderModel) prepare(ctx context.Context, needPairs bool) (*mdl, error) {
	if b.m == nil || b.m.Chain == nil {
		return nil, errors.New("dptest: the builder mechanism has no chain")
	}
	if b.m.MDP != nil {
		return nil, errors.New("dptest: the mechanism is an MDP: dptest checks Markov chains; check it with package mdp")
	}
	pairs := b.m.Neighbours
	if pairs == nil && !b.m.AllPairs {
		pairs = [][2]int{}
	}
	return chainModel{b.m.Chain, pairs, verify.FinalState()}.prepare(ctx, needPairs)
}

// Chain is the Model of a chain — one made with chain.NewBuilder, say —
// with its neighbouring pairs of input states (nil: every two inputs)
// and what is observed of a run (verify.FinalState(), verify.FinalVar,
// …), as dpcheck.AnalyzeChain takes them.
func Chain(c *chain.Chain, pairs [][2]int, out verify.Output) Model {
	return chainModel{c, pairs, out}
}

type chainModel struct {
	c     *chain.Chain
	pairs [][2]int
	out   verify.Output
}

func (cm chainModel) prepare(ctx context.Context, needPairs bool) (*mdl, error) {
	if cm.c == nil {
		return nil, errors.New("dptest: no chain")
	}
	pairs := cm.pairs
	if pairs == nil {
		var err error
		if pairs, err = model.AllPairs(cm.c.Inputs(), model.DefaultLimits.MaxMemory); err != nil {
			return nil, err
		}
	}
	m := &mdl{chain: cm.c, chainPairs: pairs, output: cm.out}
	index := map[int]int{}
	vary := varying(cm.c)
	for i, s := range cm.c.Inputs() {
		info := verify.StateInfo{ID: s, Name: cm.c.Name(s), Valuation: cm.c.Valuation(s)}
		key := info.Name
		if len(info.Valuation) > 0 {
			key = keep(info.Valuation, vary).String()
		}
		m.inputs = append(m.inputs, &modelInput{name: info.String(), key: key, u: new(big.Rat), state: s})
		index[s] = i
	}
	for _, p := range pairs {
		i, ok1 := index[p[0]]
		j, ok2 := index[p[1]]
		if ok1 && ok2 && i != j {
			m.pairs = append(m.pairs, [2]int{i, j})
		}
	}
	return m, nil
}

// varying returns which variables of c's inputs' valuations take more
// than one value among the inputs — a module's input variables, not its
// state variables, which every input starts with the same value — or nil
// (keep every variable) unless every input has the same variables, in the
// same order, and some of them vary.
func varying(c *chain.Chain) []bool {
	ins := c.Inputs()
	if len(ins) < 2 {
		return nil
	}
	first := c.Valuation(ins[0])
	vary := make([]bool, len(first))
	some := false
	for _, s := range ins[1:] {
		v := c.Valuation(s)
		if len(v) != len(first) {
			return nil
		}
		for k := range v {
			if v[k].Name != first[k].Name {
				return nil
			}
			if v[k].Value != first[k].Value {
				vary[k], some = true, true
			}
		}
	}
	if !some {
		return nil
	}
	return vary
}

// keep is v with only the variables marked in vary (all of v when vary
// is nil).
func keep(v chain.Valuation, vary []bool) chain.Valuation {
	if vary == nil {
		return v
	}
	var out chain.Valuation
	for k, x := range v {
		if vary[k] {
			out = append(out, x)
		}
	}
	return out
}

// Source is the Model of a .dp specification (its statements are not
// run): its model, inputs, neighbours and output space. The file must
// still load as dpcheck loads it — with at least one statement, which
// may be any check of it — and a model with a parameter, an MDP or a
// composition is refused.
func Source(filename, src string) Model { return sourceModel{filename: filename, src: src} }

// File is Source of the .dp file at path.
func File(path string) Model { return sourceModel{filename: path, file: true} }

type sourceModel struct {
	filename, src string
	file          bool
}

func (sm sourceModel) prepare(ctx context.Context, needPairs bool) (*mdl, error) {
	src := sm.src
	if sm.file {
		var err error
		if src, err = dpcheck.ReadSource(sm.filename, dpcheck.DefaultMaxFileSize); err != nil {
			return nil, err
		}
	}
	p, err := dpcheck.Config{}.Load(ctx, sm.filename, src)
	if err != nil {
		return nil, err
	}
	switch {
	case p.MDP != nil:
		return nil, fmt.Errorf("dptest: %s: the model is an MDP: dptest checks Markov chains", sm.filename)
	case p.Param != nil:
		return nil, fmt.Errorf("dptest: %s: the model has a parameter: dptest checks one model; give the parameter a value", sm.filename)
	case p.Composition != nil:
		return nil, fmt.Errorf("dptest: %s: the model is a composition: check its statements with dpcheck", sm.filename)
	case p.Chain == nil:
		return nil, fmt.Errorf("dptest: %s has no model", sm.filename)
	}
	pairs, err := p.Pairs()
	if err != nil {
		return nil, err
	}
	if pairs == nil {
		pairs = [][2]int{}
	}
	return chainModel{p.Chain, pairs, p.Output}.prepare(ctx, needPairs)
}

// compareValues orders two values of a comparable type naturally, for
// the order in which results list outputs: numbers by value, strings and
// booleans as Go orders them, arrays and structs element by element, and
// anything else by its %v.
func compareValues(a, b any) int {
	return compareReflect(reflect.ValueOf(a), reflect.ValueOf(b))
}

func compareReflect(a, b reflect.Value) int {
	if !a.IsValid() || !b.IsValid() || a.Kind() != b.Kind() || a.Type() != b.Type() {
		return strings.Compare(fmt.Sprint(a), fmt.Sprint(b))
	}
	switch a.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return cmp.Compare(a.Int(), b.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return cmp.Compare(a.Uint(), b.Uint())
	case reflect.Float32, reflect.Float64:
		return cmp.Compare(a.Float(), b.Float()) // the order of a list, never a verdict
	case reflect.String:
		return strings.Compare(a.String(), b.String())
	case reflect.Bool:
		return cmp.Compare(boolInt(a.Bool()), boolInt(b.Bool()))
	case reflect.Array:
		for i := range a.Len() {
			if c := compareReflect(a.Index(i), b.Index(i)); c != 0 {
				return c
			}
		}
		return 0
	case reflect.Struct:
		for i := range a.NumField() {
			if c := compareReflect(a.Field(i), b.Field(i)); c != 0 {
				return c
			}
		}
		return 0
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return cmp.Compare(boolInt(!a.IsNil()), boolInt(!b.IsNil()))
		}
		return compareReflect(a.Elem(), b.Elem())
	}
	return strings.Compare(fmt.Sprint(a), fmt.Sprint(b))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
