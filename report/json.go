package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math/big"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/verify"
)

// SchemaVersion is the version of the JSON document. It changes only when
// a field is removed or changes meaning; new fields may be added.
const SchemaVersion = 1

// Document is the JSON output of dpcheck --format json.
type Document struct {
	Schema  int       `json:"schema"`
	Version string    `json:"dpcheck"`
	Pass    bool      `json:"pass"`
	Files   []FileDoc `json:"files"`
}

// FileDoc is one file.
type FileDoc struct {
	File string `json:"file"`
	// Consts are the constants' values of this run of a sweep ("K=3").
	Consts      string     `json:"consts,omitempty"`
	Status      string     `json:"status"` // pass, fail, invalid, aborted
	Errors      []ErrorDoc `json:"errors,omitempty"`
	Model       *ModelDoc  `json:"model,omitempty"`
	Size        *SizeDoc   `json:"size,omitempty"`
	OutputSpace string     `json:"output_space,omitempty"`
	// Lumped lists the lumpings the statements were evaluated on (with
	// lumping on).
	Lumped     []LumpedDoc     `json:"lumped,omitempty"`
	Statements []*StatementDoc `json:"statements,omitempty"`
}

// LumpedDoc is one lumping: the output spaces (and "dpCTL formulas") it
// served, and the chain's size before and after.
type LumpedDoc struct {
	For    []string     `json:"for"`
	Before ChainSizeDoc `json:"before"`
	After  ChainSizeDoc `json:"after"`
}

// ChainSizeDoc is the size of a chain.
type ChainSizeDoc struct {
	States      int `json:"states"`
	Transitions int `json:"transitions"`
}

// ErrorDoc is a parse or semantic error.
type ErrorDoc struct {
	// File is set when the error is in another file than the entry's (the
	// PRISM model of a properties file or of a .dp file).
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Message string `json:"message"`
}

// ModelDoc says where the chain came from.
type ModelDoc struct {
	Kind string `json:"kind"` // builder, chain, modules or prism
	Call string `json:"call,omitempty"`
	Note string `json:"note,omitempty"`
	// Neighbours says which inputs are neighbours when a convention
	// decides it (a PRISM model: every two initial states).
	Neighbours string `json:"neighbours,omitempty"`
}

// SizeDoc is the size of the checked model.
type SizeDoc struct {
	States         int `json:"states"`
	Transitions    int `json:"transitions"`
	Inputs         int `json:"inputs"`
	NeighbourPairs int `json:"neighbour_pairs"`
	OrderedPairs   int `json:"ordered_pairs"`
	Outputs        int `json:"outputs"`
	// Runs is set for a composition whose product chain was not built:
	// the sizes are one run's.
	Runs int `json:"runs,omitempty"`
	// MDP is set when the model is a Markov decision process, with its
	// enabled choices and its actions (transitions: the successors of all
	// choices).
	MDP     bool `json:"mdp,omitempty"`
	Choices int  `json:"choices,omitempty"`
	Actions int  `json:"actions,omitempty"`
}

// Number is an exact value and its decimal approximation (null for ∞):
// the exact value correctly rounded to 17 significant digits, as a JSON
// number (it may be outside float64's range, as 7.5638913231040998e-478).
// For a privacy parameter ε, ExpEps is e^ε as an exact rational when it is
// one ("16" for ε = 4·ln(2)); it is omitted otherwise (∞, or e^ε
// irrational).
type Number struct {
	Exact   string       `json:"exact"`
	Decimal *json.Number `json:"decimal"`
	ExpEps  string       `json:"exp_eps,omitempty"`
}

// StateDoc names a state.
type StateDoc struct {
	Name      string           `json:"name"`
	Valuation map[string]int64 `json:"valuation,omitempty"`
}

// WitnessDoc is an ordered pair of inputs and an event.
type WitnessDoc struct {
	From  StateDoc `json:"from"`
	To    StateDoc `json:"to"`
	Event []string `json:"event"`
	// LossEvent describes the event of a composition by privacy loss
	// (Event is then empty).
	LossEvent *LossEventDoc `json:"loss_event,omitempty"`
	PrFrom    Number        `json:"pr_from"`
	PrTo      Number        `json:"pr_to"`
	// Approached: the tight ε is the limit of the ratio of the
	// probabilities of the values of the event, a merged tail, attained
	// by none; pr_from and pr_to are the whole tail's.
	Approached bool `json:"approached,omitempty"`
}

// LossEventDoc is an event of a composition: the tuples of the runs'
// outputs whose privacy loss is above (op ">") or at least (">=") loss,
// or infinite ("inf").
type LossEventDoc struct {
	Runs   int     `json:"runs"`
	Op     string  `json:"op"`
	Loss   *Number `json:"loss,omitempty"`
	Values int     `json:"values"`
	// Infinite says whether the event has tuples of infinite loss.
	Infinite bool `json:"infinite"`
}

// CounterexampleDoc explains a violated dp(ε, δ).
type CounterexampleDoc struct {
	WitnessDoc
	Bound    Number `json:"bound"`
	Excess   Number `json:"excess"`
	LeastEps Number `json:"least_eps"`
	// LeastEpsAtLeast says least_eps is a lower bound only (a model whose
	// tails were merged for the statements' ε).
	LeastEpsAtLeast bool       `json:"least_eps_at_least,omitempty"`
	WorstOutput     *OutputDoc `json:"worst_output,omitempty"`
	// Path is the most likely run from the first input into the event.
	Path   []string `json:"path,omitempty"`
	PathPr *Number  `json:"path_pr,omitempty"`
}

// OutputDoc is one output with its probability under each input.
type OutputDoc struct {
	Output string `json:"output"`
	PrFrom Number `json:"pr_from"`
	PrTo   Number `json:"pr_to"`
}

// ProfilePointDoc is a breakpoint of the privacy profile.
type ProfilePointDoc struct {
	Eps   Number `json:"eps"`
	C     Number `json:"c"`
	Delta Number `json:"delta"`
}

// CheckedDoc says how much a statement covered.
type CheckedDoc struct {
	OrderedPairs int `json:"ordered_pairs"`
	Outputs      int `json:"outputs"`
	// Runs and LossValues are set for a composition: Outputs are one
	// run's, and LossValues the largest number of distinct loss values of
	// a pair over all runs, the infinite one included (0 when one run's
	// were enough).
	Runs       int `json:"runs,omitempty"`
	LossValues int `json:"loss_values,omitempty"`
}

func checkedDoc(c verify.Checked) *CheckedDoc {
	return &CheckedDoc{OrderedPairs: c.OrderedPairs, Outputs: c.Outputs, Runs: c.Runs, LossValues: c.LossValues}
}

// StatementDoc is one statement's result.
type StatementDoc struct {
	Line      int     `json:"line"`
	Column    int     `json:"column"`
	Source    string  `json:"source"`
	Kind      string  `json:"kind"`
	Semantics string  `json:"semantics"`
	Eps       *Number `json:"eps,omitempty"`
	Delta     *Number `json:"delta,omitempty"`
	// Outcome is holds or violated for checks (or unknown, for a check
	// on an MDP that could be neither proved nor refuted), value for
	// queries (interval for a query on an MDP not decided exactly: see
	// MDP.Lower and MDP.Upper), pieces for a query for every value of a
	// parameter (see Param.Pieces), error, or stopped (timeout or
	// interrupt).
	Outcome        string             `json:"outcome"`
	Value          *Number            `json:"value,omitempty"`
	Expect         *string            `json:"expect"`
	Pass           bool               `json:"pass"`
	Error          string             `json:"error,omitempty"`
	Checked        *CheckedDoc        `json:"checked,omitempty"`
	Witness        *WitnessDoc        `json:"witness,omitempty"`
	Counterexample *CounterexampleDoc `json:"counterexample,omitempty"`
	Profile        []ProfilePointDoc  `json:"profile,omitempty"`
	// OutputSpace is what dp, eps, delta and profile compare (it differs
	// from the file's for "over traces(k)").
	OutputSpace string `json:"output_space,omitempty"`
	// Formula is set for dpCTL checks and queries: the formula (or path)
	// as dpcheck read it.
	Formula string `json:"formula,omitempty"`
	// Explanation says where and why a formula check fails.
	Explanation *ExplanationDoc `json:"explanation,omitempty"`
	// Probabilities is the answer of query P=?[…], per input.
	Probabilities []InputProbDoc `json:"probabilities,omitempty"`
	// Worst is the input of expected(f)'s worst value (Value).
	Worst *StateDoc `json:"worst,omitempty"`
	// Filter is the answer of PRISM's filter(op, prop, states).
	Filter *FilterDoc `json:"filter,omitempty"`
	// Rewards is the answer of R=?[…] and R~r[…], and of expected(f),
	// per input (Value is then the largest).
	Rewards []InputRewardDoc `json:"rewards,omitempty"`
	// Models are the two models of check equivalent(…); Difference is
	// where their distributions differ.
	Models     []string       `json:"models,omitempty"`
	Matched    *MatchedDoc    `json:"matched,omitempty"`
	Difference *DifferenceDoc `json:"difference,omitempty"`
	// MDP says how a statement on an MDP was decided (over which
	// schedulers, the verdict's kind, the search, the worst sequence).
	MDP *MDPDoc `json:"mdp,omitempty"`
	// Param is set for a statement decided for every value of the
	// file's parameter (check dp(…) for alpha).
	Param *ParamDoc `json:"param,omitempty"`
}

// MatchedDoc says which variables check equivalent matched inputs and
// outputs on (absent: by state name) and which it ignored.
type MatchedDoc struct {
	Inputs         []string `json:"inputs,omitempty"`
	Outputs        []string `json:"outputs,omitempty"`
	InputsIgnored  []string `json:"inputs_ignored,omitempty"`
	OutputsIgnored []string `json:"outputs_ignored,omitempty"`
}

// DifferenceDoc is an input and output where two models differ.
type DifferenceDoc struct {
	Input  string `json:"input"`
	Output string `json:"output"`
	PrA    Number `json:"pr_first"`
	PrB    Number `json:"pr_second"`
}

// ExplanationDoc follows a failing formula down to its failing part.
type ExplanationDoc struct {
	State   StateDoc          `json:"state"`
	Formula string            `json:"formula"`
	Reason  string            `json:"reason"`
	DP      *DPViolationDoc   `json:"dp,omitempty"`
	Causes  []*ExplanationDoc `json:"causes,omitempty"`
}

// DPViolationDoc is a failing direction of a D operator.
type DPViolationDoc struct {
	From   StateDoc `json:"from"`
	To     StateDoc `json:"to"`
	Path   string   `json:"path"`
	PrFrom Number   `json:"pr_from"`
	PrTo   Number   `json:"pr_to"`
	Bound  Number   `json:"bound"`
	Excess Number   `json:"excess"`
}

// InputProbDoc is Pr(ψ) from one input.
type InputProbDoc struct {
	State StateDoc `json:"state"`
	Pr    Number   `json:"pr"`
	// Expected is the probability the statement expects of this input.
	Expected *Number `json:"expected,omitempty"`
	// Min and Max are Pmin and Pmax over the schedulers of an MDP (those
	// the query computed).
	Min *Number `json:"min,omitempty"`
	Max *Number `json:"max,omitempty"`
}

// FilterDoc is the result of filter(op, prop, states): the operator, the
// result as exact text ("1/3", "∞", "true", "[0, 1/2]"), the number of
// states kept, and the states selected (argmin, argmax, first, state,
// print), each with its value or truth.
type FilterDoc struct {
	Op       string           `json:"op"`
	Result   string           `json:"result"`
	States   int              `json:"states"`
	Selected []FilterStateDoc `json:"selected,omitempty"`
}

// FilterStateDoc is a state a filter selected.
type FilterStateDoc struct {
	State StateDoc `json:"state"`
	Value *Number  `json:"value,omitempty"`
	Holds *bool    `json:"holds,omitempty"`
}

// InputRewardDoc is the expected reward from one input (exact "∞" and no
// decimal when it is infinite).
type InputRewardDoc struct {
	State StateDoc `json:"state"`
	Value Number   `json:"value"`
	// Expected is the value the statement expects of this input.
	Expected *Number `json:"expected,omitempty"`
}

func explanationDoc(e *verify.Explanation) *ExplanationDoc {
	if e == nil {
		return nil
	}
	d := &ExplanationDoc{State: stateDoc(e.State), Formula: e.Formula, Reason: e.Reason}
	for _, c := range e.Causes {
		d.Causes = append(d.Causes, explanationDoc(c))
	}
	if v := e.DP; v != nil {
		d.DP = &DPViolationDoc{From: stateDoc(v.From), To: stateDoc(v.To), Path: v.Path, PrFrom: ratNum(v.PrFrom),
			PrTo: ratNum(v.PrTo), Bound: realNum(v.Bound), Excess: realNum(v.Excess)}
	}
	return d
}

func num(exact, decimal string) Number {
	if decimal == "∞" {
		return Number{Exact: exact}
	}
	d := json.Number(decimal)
	return Number{Exact: exact, Decimal: &d}
}

func ratNum(x *big.Rat) Number { return num(x.RatString(), exact.JSONDecimal().Rat(x)) }

// optRat is x's Number, or nil for a nil x.
func optRat(x *big.Rat) *Number {
	if x == nil {
		return nil
	}
	return ptr(ratNum(x))
}

// opt is the document f makes of *x, or nil for a nil x.
func opt[T, D any](x *T, f func(T) D) *D {
	if x == nil {
		return nil
	}
	return ptr(f(*x))
}

func epsNum(e exact.Eps) Number {
	n := num(e.String(), exact.JSONDecimal().Eps(e))
	if c, ok := e.C(); ok {
		n.ExpEps = c.RatString()
	}
	return n
}

func realNum(r exact.Real) Number { return num(r.String(), exact.JSONDecimal().Real(r)) }

func stateDoc(s verify.StateInfo) StateDoc {
	d := StateDoc{Name: s.Name}
	if len(s.Valuation) > 0 {
		d.Valuation = map[string]int64{}
		for _, v := range s.Valuation {
			d.Valuation[v.Name] = v.Value
		}
	}
	return d
}

func witnessDoc(w *verify.Witness) *WitnessDoc {
	if w == nil {
		return nil
	}
	ev := w.Event
	if ev == nil {
		ev = []string{}
	}
	d := &WitnessDoc{From: stateDoc(w.From), To: stateDoc(w.To), Event: ev, PrFrom: ratNum(w.PrFrom), PrTo: ratNum(w.PrTo), Approached: w.Approached}
	if l := w.Loss; l != nil {
		d.LossEvent = &LossEventDoc{Runs: l.Runs, Op: l.Op, Values: l.Values, Infinite: l.Infinite}
		switch l.Op {
		case "∞":
			d.LossEvent.Op = "inf"
		case "≥":
			d.LossEvent.Op = ">="
		}
		if l.Op != "∞" {
			d.LossEvent.Loss = ptr(epsNum(l.Loss))
		}
	}
	return d
}

// Build turns entries into the JSON document.
func Build(entries []Entry, version string) *Document {
	doc := &Document{Schema: SchemaVersion, Version: version, Pass: true, Files: []FileDoc{}}
	for _, e := range entries {
		st := StatusOf(e)
		if st != Pass {
			doc.Pass = false
		}
		fd := FileDoc{File: e.File, Consts: e.Consts, Status: st.String()}
		if e.Err != nil {
			var list source.ErrorList
			if errors.As(e.Err, &list) {
				for _, x := range list {
					d := ErrorDoc{Line: x.Pos.Line, Column: x.Pos.Column, Message: x.Msg}
					if x.Pos.Filename != e.File {
						d.File = x.Pos.Filename
					}
					fd.Errors = append(fd.Errors, d)
				}
			} else {
				fd.Errors = append(fd.Errors, ErrorDoc{Message: errText(e.Err)})
			}
		}
		if r := e.Result; r != nil && r.Model.Kind != "" {
			fd.Model = &ModelDoc{Kind: r.Model.Kind, Call: r.Model.Call, Note: r.Model.Note, Neighbours: r.Model.Neighbours}
			s := r.Size
			fd.Size = &SizeDoc{States: s.States, Transitions: s.Transitions, Inputs: s.Inputs,
				NeighbourPairs: s.Pairs, OrderedPairs: 2 * s.Pairs, Outputs: s.Outputs, Runs: s.Runs,
				MDP: s.MDP, Choices: s.Choices, Actions: s.Actions}
			fd.OutputSpace = r.OutputSpace
			for _, l := range r.Lumped {
				fd.Lumped = append(fd.Lumped, LumpedDoc{For: l.For,
					Before: ChainSizeDoc{States: l.Before.States, Transitions: l.Before.Transitions},
					After:  ChainSizeDoc{States: l.After.States, Transitions: l.After.Transitions}})
			}
		}
		if e.Result != nil {
			for _, o := range e.Result.Statements {
				fd.Statements = append(fd.Statements, statementDoc(o))
			}
		}
		doc.Files = append(doc.Files, fd)
	}
	return doc
}

func statementDoc(o property.Outcome) *StatementDoc {
	h := o.Statement().Head()
	k := view(o)
	d := &StatementDoc{Line: h.Pos.Line, Column: h.Pos.Column, Source: h.Text, Kind: o.Statement().Kind(),
		Semantics: o.Statement().Describe(), Pass: o.Pass(), OutputSpace: k.output}
	if k.params != nil {
		k.params(d)
	}
	if h.Expect.Kind != property.ExpectNone {
		t := h.Expect.Text
		d.Expect = &t
	}
	if err := o.Err(); err != nil {
		d.Outcome, d.Error = "error", errText(err)
		if stopped(err) {
			d.Outcome = "stopped"
		}
		return d
	}
	d.Outcome = o.Value()
	k.json(d)
	return d
}

// counterexampleDoc documents a violated dp(ε, δ).
func counterexampleDoc(cx *verify.Counterexample) *CounterexampleDoc {
	if cx == nil {
		return nil
	}
	c := &CounterexampleDoc{WitnessDoc: *witnessDoc(&cx.Witness), Bound: realNum(cx.Bound), Excess: realNum(cx.Excess), LeastEps: epsNum(cx.LeastEps), LeastEpsAtLeast: cx.LeastEpsAtLeast}
	if cx.WorstOutput != "" {
		c.WorstOutput = &OutputDoc{Output: cx.WorstOutput, PrFrom: ratNum(cx.WorstFrom), PrTo: ratNum(cx.WorstTo)}
	}
	if len(cx.Path) > 0 {
		for _, v := range cx.Path {
			c.Path = append(c.Path, v.Name)
		}
		c.PathPr = ptr(ratNum(cx.PathPr))
	}
	return c
}

// JSON writes the entries as one indented JSON document. Strings are
// escaped by the encoding: besides JSON's own escapes, every character
// that could drive a terminal showing the document raw (DEL, C1, the
// direction controls) is written as a \u escape.
func JSON(w io.Writer, entries []Entry, version string) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(Build(entries, version)); err != nil {
		return err
	}
	_, err := w.Write(jsonSafe(b.Bytes()))
	return err
}
