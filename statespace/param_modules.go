package statespace

import (
	"context"
	"fmt"

	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/param"
	"github.com/dpcheck/dpcheck/poly"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
)

// ParamModules is a model of guarded commands with a parameter — a .dp
// file's modules or a PRISM model with an undefined double constant — as
// a property.ParamSource: a program decides its statements for every value
// of the parameter on the parametric chain BuildParam explores.
type ParamModules struct {
	// Model is the modules; Name the parameter, Interval its values.
	Model    *Model
	Name     string
	Interval poly.Interval
	// Limits bound the exploration (states, transitions).
	Limits model.Limits
	// Describe, when set, describes the model (a PRISM file's); else the
	// modules describe themselves.
	Describe *property.ModelInfo
	// deadlocks counts the states without an enabled command, once built
	// (PRISM's semantics gives them a self-loop).
	deadlocks int
}

// Info describes the model, noting that it is for every parameter value
// (and, once built, its deadlock states).
func (m *ParamModules) Info() property.ModelInfo {
	i := m.Model.Info()
	if m.Describe != nil {
		i = *m.Describe
	}
	i.Note = fmt.Sprintf("for every %s in %s", m.Name, m.Interval)
	if m.deadlocks > 0 {
		i.Note += fmt.Sprintf("; %d deadlock states got a self-loop (as PRISM does)", m.deadlocks)
	}
	return i
}

// Position is where the first module starts.
func (m *ParamModules) Position() source.Position { return m.Model.Pos }

// Build refuses: the modules are explored by BuildParam.
func (m *ParamModules) Build(ctx context.Context, l model.Limits) (*model.Mechanism, error) {
	return nil, property.ErrParamBuild
}

// BuildParam explores the modules for every value of the parameter
// (Model.BuildParam), at the simplest rational of the interval, within the
// limits on states and transitions; a self-loop of probability 1 is an
// absorbing state, as without the parameter.
func (m *ParamModules) BuildParam(ctx context.Context, lim poly.Limits) (*param.Chain, error) {
	sc, err := m.Model.BuildParam(ctx, m.Limits, Param{Name: m.Name, Interval: m.Interval, At: poly.Simplest(m.Interval), Limits: lim})
	if err != nil {
		return nil, err
	}
	m.deadlocks = 0
	for s := range sc.Frame.NumStates() {
		if m.Model.Semantics == PRISM && sc.Frame.HasLabel(s, "deadlock") {
			m.deadlocks++
		}
	}
	rows := make([][]param.Trans, len(sc.Rows))
	one := poly.FromPoly(poly.FromInts(1))
	for s, r := range sc.Rows {
		if len(r) == 1 && r[0].To == s && r[0].P.Equal(one) {
			continue
		}
		rows[s] = make([]param.Trans, len(r))
		for i, t := range r {
			rows[s][i] = param.Trans{To: t.To, P: t.P}
		}
	}
	pc, err := param.New(ctx, lim, sc.Frame, m.Name, m.Interval, rows, sc.Neighbours)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, source.ErrorList{{Pos: m.Model.Pos, Msg: err.Error()}}
	}
	return pc, nil
}
