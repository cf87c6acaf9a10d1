package property

import (
	"context"
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/verify"
)

// ExpectedQuery is "query expected(f)": the expected value of the number
// f at the state where a run ends, from every input, exactly — a
// mechanism's accuracy, such as its expected absolute error
// expected(abs(out - in)); with a bound ("check expected(f) <= b") a check
// that every input meets it. The largest value and its input are
// reported (the worst input; the smallest for a lower bound). Every run must end (reach an absorbing
// state) with probability 1. f is evaluated where runs end: a variable
// that state lacks (a builder's output state has only out) is read at the
// input (docs/semantics.md §2.13).
type ExpectedQuery struct {
	Header
	Expr *expr.Expr
	// Cmp and Bound, when Bound is set, make the statement a check.
	Cmp   string
	Bound *big.Rat
	// ExpectAll, when set, is the value expected of every input;
	// ExpectInputs those expected of named inputs.
	ExpectAll    *big.Rat
	ExpectInputs []ExpectedProb
	want         map[int]*big.Rat
	value        func(end, input int) (*big.Rat, error)
}

// ExpectedOutcome is the expected value from every input and the worst.
type ExpectedOutcome struct {
	base
	Values []verify.InputReward
	// Worst indexes the largest of Values (the smallest for a check of a
	// lower bound, ExpectedQuery.Lower; the first when several are).
	Worst int
	// Holds says whether every value meets the bound of a check.
	Holds bool
}

// Kind is "query expected", or "check expected" with a bound.
func (s *ExpectedQuery) Kind() string {
	if s.Bound != nil {
		return "check expected"
	}
	return "query expected"
}

// Describe says what the statement computes.
func (s *ExpectedQuery) Describe() string {
	if s.Bound != nil {
		return fmt.Sprintf("E[f] %s %s at every input, f evaluated where the run ends", s.Cmp, s.Bound.RatString())
	}
	return "E[f] from every input, f evaluated where the run ends"
}

// Expected returns the value the query expects of input s, or nil (once
// prepared).
func (s *ExpectedQuery) Expected(st int) *big.Rat {
	if s.ExpectAll != nil {
		return s.ExpectAll
	}
	return s.want[st]
}

func (s *ExpectedQuery) prepare(_ context.Context, p *Prepared) source.ErrorList {
	var errs source.ErrorList
	switch {
	case p.MDP != nil:
		p.refuse(&s.Header, errorAt(s.Pos, "expected(…) is not supported on MDPs: its value depends on the scheduler; a PRISM file's Rmin=? and Rmax=? [F φ] give the extremes"))
		return nil
	case p.Chain == nil:
		return source.ErrorList{errorAt(s.Pos, "expected(…) needs a model")}
	case p.ExactAt != nil:
		p.refuse(&s.Header, errorAt(s.Pos, "expected(…) is not supported when an unbounded output's tails are merged: observe a bounded function of the unbounded variable"))
		return nil
	}
	var cerrs source.ErrorList
	s.value, cerrs = expr.CompileValue(s.Expr, p.Chain)
	errs = append(errs, cerrs...)
	if why := partialEndVar(s.Expr, p.Chain, p.Chain.IsAbsorbing); why != nil {
		p.refuse(&s.Header, why)
	}
	var werrs source.ErrorList
	s.want, werrs = expectedByInput(p, s.ExpectInputs)
	return append(errs, werrs...)
}

// Evaluate computes the expected value from every input, over the
// distribution of the states where its runs end.
func (s *ExpectedQuery) Evaluate(ctx context.Context, e *Env) Outcome {
	o := &ExpectedOutcome{base: base{st: s}}
	if err := s.evaluate(ctx, e, o); err != nil {
		o.fail(err)
		return o
	}
	o.Holds, o.pass = true, true
	for i, v := range o.Values {
		if c := o.Values[o.Worst].Value.Cmp(v.Value); c < 0 && !s.Lower() || c > 0 && s.Lower() {
			o.Worst = i
		}
		o.Holds = o.Holds && s.Meets(v.Value)
		if want := s.Expected(v.State.ID); want != nil && want.Cmp(v.Value) != 0 {
			o.pass = false
		}
	}
	if s.Bound != nil {
		o.passCheck(&s.Header, o.Holds)
	}
	return o
}

func (s *ExpectedQuery) evaluate(ctx context.Context, e *Env, o *ExpectedOutcome) error {
	c := e.p.Chain
	vs, err := verify.FinalValues(ctx, c, func(in, end int) (*big.Rat, error) {
		v, err := s.value(end, in)
		if err != nil {
			return nil, fmt.Errorf("%w (where a run from %s ends, at %s)", err, stateInfo(c, in), stateInfo(c, end))
		}
		return v, nil
	})
	o.Values = vs
	return err
}

// Lower reports whether the statement checks a lower bound (> or >=):
// its worst input has the smallest value.
func (s *ExpectedQuery) Lower() bool { return s.Cmp == ">" || s.Cmp == ">=" }

// Meets reports whether a value meets the bound of a check.
func (s *ExpectedQuery) Meets(v *big.Rat) bool {
	q := RewardQuery{Cmp: s.Cmp, Bound: s.Bound}
	return q.Meets(v)
}

// Value is "holds" or "violated" for a check, "" for a query (one value
// per input).
func (o *ExpectedOutcome) Value() string {
	if o.Statement().(*ExpectedQuery).Bound != nil {
		return verdict(&o.base, o.Holds)
	}
	return o.noValue()
}

// partialEndVar refuses an expected(f) whose f reads a variable that some
// states where runs end have and others lack: such a state stands for many
// values of it (the merged tail of an unbounded output, "out≥6"; end
// says which states are where runs end), and
// reading the variable at the input there would be wrong. A variable no
// end state has (a builder's input data, in) is read at the input.
func partialEndVar(e *expr.Expr, c *chain.Chain, end func(s int) bool) *source.Error {
	names := map[string]source.Position{}
	var walk func(e *expr.Expr)
	walk = func(e *expr.Expr) {
		if e == nil {
			return
		}
		if e.Op == expr.Var {
			if _, ok := names[e.Name]; !ok {
				names[e.Name] = e.Pos
			}
		}
		for _, a := range e.Args {
			walk(a)
		}
	}
	walk(e)
	for name, pos := range names {
		has, lacks := false, -1
		for st := range c.NumStates() {
			if !end(st) {
				continue
			}
			if _, ok := c.Value(st, name); ok {
				has = true
			} else if lacks < 0 {
				lacks = st
			}
		}
		if has && lacks >= 0 {
			return errorAt(pos, "expected(f) reads %s, which the end state %s lacks: it stands for many values of %s (the merged tail of an unbounded output), and expected values over such tails are not supported", name, c.Name(lacks), name)
		}
	}
	return nil
}
