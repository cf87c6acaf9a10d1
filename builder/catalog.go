package builder

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"sort"

	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/poly"
)

// ParamKind is the type of a builder parameter.
type ParamKind int

const (
	// Rational parameters take any exact rational (1/2, 0.75, 1e-3).
	Rational ParamKind = iota
	// Integer parameters take an integer.
	Integer
	// Choice parameters take one of a fixed set of strings.
	Choice
	// Model parameters take another builder call, such as survey().
	Model
)

func (k ParamKind) String() string {
	switch k {
	case Integer:
		return "integer"
	case Choice:
		return "choice"
	case Model:
		return "model"
	}
	return "rational"
}

// Param describes one parameter of a builder.
type Param struct {
	Name string
	Kind ParamKind
	// Default is the value used when the argument is omitted, written as in
	// a spec ("1", "1/2", ">="); empty means the parameter is required.
	Default string
	// Choices lists the accepted values of a Choice parameter.
	Choices []string
	// Min and Max, when Max > Min, are the values an Integer parameter may
	// take; CheckSize checks them before the size, and the .dp front end
	// as it reads the argument. Ranges that depend on another argument
	// (a sensitivity at most n) are checked by the builder.
	Min, Max int
	Doc      string
}

// Range returns the values the Integer parameter p may take: its Min and
// Max, or the 32-bit integers when it declares none.
func (p Param) Range() (lo, hi int) {
	if p.Max > p.Min {
		return p.Min, p.Max
	}
	return -1 << 31, 1 << 31
}

// Args holds the checked arguments of a builder call.
type Args struct {
	rats    map[string]*big.Rat
	ints    map[string]int
	choices map[string]string
	models  map[string]*model.Mechanism
	limits  model.Limits
}

// NewArgs returns empty arguments.
func NewArgs() *Args {
	return &Args{rats: map[string]*big.Rat{}, ints: map[string]int{}, choices: map[string]string{}, models: map[string]*model.Mechanism{}}
}

// SetModel sets a model argument.
func (a *Args) SetModel(name string, m *model.Mechanism) { a.models[name] = m }

// Model returns a model argument (nil when unset).
func (a *Args) Model(name string) *model.Mechanism { return a.models[name] }

// SetRat sets a rational argument.
func (a *Args) SetRat(name string, x *big.Rat) { a.rats[name] = x }

// SetInt sets an integer argument.
func (a *Args) SetInt(name string, x int) { a.ints[name] = x }

// SetChoice sets a choice argument.
func (a *Args) SetChoice(name, x string) { a.choices[name] = x }

// Rat returns a rational argument (nil when unset).
func (a *Args) Rat(name string) *big.Rat { return a.rats[name] }

// Int returns an integer argument (0 when unset).
func (a *Args) Int(name string) int { return a.ints[name] }

// Choice returns a choice argument ("" when unset).
func (a *Args) Choice(name string) string { return a.choices[name] }

// Def describes a builder: its name as written in a spec, its parameters
// and how to call it with checked arguments.
type Def struct {
	Name   string
	Doc    string
	Params []Param
	// Build builds the mechanism. It stops with ctx's error, unwrapped,
	// when ctx ends before the chain is complete.
	Build func(ctx context.Context, a *Args) (*model.Mechanism, error)
	// Size estimates the states and transitions Build would create (an
	// upper bound where the exact count is awkward).
	Size func(*Args) (states, transitions float64)
	// Bits estimates the total size in bits (numerator plus denominator)
	// of the distinct probabilities Build would create: an upper bound,
	// computed in closed form (see bits.go).
	Bits func(*Args) float64
	// Composition, when set, says that the builder runs another model
	// several times (compose): it describes the runs without building
	// them. CheckSize then checks the parameters only; the product chain's
	// size is Composition.CheckProduct's, and Build checks it first.
	Composition func(*Args) Composition
	// ParamArgs lists the Rational arguments that may be the parameter of
	// a model for every parameter value; Parametric builds that model: the
	// chain's states and rows, its probabilities rational functions of the
	// parameter (p.Arg). Build and Parametric write the same rows once,
	// generic over the number field.
	ParamArgs  []string
	Parametric func(ctx context.Context, a *Args, p Parametric) (*Table[poly.RatFunc], error)
	// MDP says that Build returns a Markov decision process (an analyst
	// chooses the actions), whose Mechanism.MDP is set.
	MDP bool
}

// Param returns the named parameter.
func (d *Def) Param(name string) (Param, bool) {
	for _, p := range d.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// WithDefaults fills every omitted argument that has a default. It reports
// the first required parameter that is missing.
func (d *Def) WithDefaults(a *Args) error {
	for _, p := range d.Params {
		switch p.Kind {
		case Rational:
			if a.rats[p.Name] != nil {
				continue
			}
			if p.Default == "" {
				return fmt.Errorf("%s: missing parameter %s", d.Name, p.Name)
			}
			x, _ := new(big.Rat).SetString(p.Default)
			a.rats[p.Name] = x
		case Integer:
			if _, ok := a.ints[p.Name]; ok {
				continue
			}
			if p.Default == "" {
				return fmt.Errorf("%s: missing parameter %s", d.Name, p.Name)
			}
			var x int
			fmt.Sscan(p.Default, &x)
			a.ints[p.Name] = x
		case Choice:
			if _, ok := a.choices[p.Name]; ok {
				continue
			}
			if p.Default == "" {
				return fmt.Errorf("%s: missing parameter %s", d.Name, p.Name)
			}
			a.choices[p.Name] = p.Default
		case Model:
			if a.models[p.Name] == nil {
				return fmt.Errorf("%s: missing parameter %s", d.Name, p.Name)
			}
		}
	}
	return nil
}

// Catalog returns every builder, sorted by name.
func Catalog() []*Def {
	alphaT := Param{Name: "alpha_t", Kind: Rational, Default: "1/4", Doc: "geometric noise on the threshold"}
	alphaQ := Param{Name: "alpha_q", Kind: Rational, Default: "1/2", Doc: "geometric noise on each query answer"}
	alphaEps := Param{Name: "alpha", Kind: Rational, Doc: "α = e^-ε"}
	countLo := Param{Name: "lo", Kind: Integer, Default: "0", Doc: "smallest count"}
	countHi := Param{Name: "hi", Kind: Integer, Doc: "largest count"}
	thresholdN := Param{Name: "n", Kind: Integer, Default: "5", Doc: "databases and thresholds range over {0..n}"}
	untruncatedN := thresholdN
	untruncatedN.Min, untruncatedN.Max = 1, MaxUntruncatedThresholdRange
	cmpShort := Param{Name: "cmp", Kind: Choice, Default: ">=", Choices: []string{">=", ">"}, Doc: `halt when the noisy answer is ">=" or ">" the noisy threshold`}
	sensitivity := Param{Name: "sensitivity", Kind: Integer, Default: "1", Doc: "inputs k, l are neighbours iff 0 < |k-l| <= sensitivity"}
	geoAlpha := Param{Name: "alpha", Kind: Rational, Doc: "noise parameter in (0, 1); the mechanism is (-sensitivity·ln alpha)-DP"}
	largest := Param{Name: "n", Kind: Integer, Min: 1, Max: MaxRange, Doc: "largest count"}
	queries := Param{Name: "k", Kind: Integer, Doc: "maximum number of queries"}
	untruncatedQueries := queries
	untruncatedQueries.Min, untruncatedQueries.Max = 1, MaxUntruncatedThresholdQueries
	defs := []*Def{
		{
			Name:       "survey",
			ParamArgs:  []string{"theta1", "theta2"},
			Parametric: paramSurvey,
			Bits:       surveyBits,
			Size:       func(*Args) (float64, float64) { return 4, 6 },
			Doc:        "randomized response: truthful with probability theta1, else yes with probability theta2 (the notes Differential Privacy; Model Checking Differentially Private Properties)",
			Params: []Param{
				{Name: "theta1", Kind: Rational, Default: "1/2", Doc: "probability of answering truthfully"},
				{Name: "theta2", Kind: Rational, Default: "1/2", Doc: "probability of yes when not truthful"},
			},
			Build: func(ctx context.Context, a *Args) (*model.Mechanism, error) {
				return survey(ctx, a.Rat("theta1"), a.Rat("theta2"))
			},
		},
		{
			Name:       "truncated_geometric",
			ParamArgs:  []string{"alpha"},
			Parametric: paramGeometric,
			Bits:       func(a *Args) float64 { return geometricTableBits(a.Rat("alpha"), f(a.Int("n"))) },
			Size:       func(a *Args) (float64, float64) { n := f(a.Int("n")) + 1; return 2 * n, n*n + n },
			Doc:        "the truncated alpha-geometric mechanism over {0..n} (Model Checking Differentially Private Properties)",
			Params:     []Param{geoAlpha, largest, sensitivity},
			Build: func(ctx context.Context, a *Args) (*model.Mechanism, error) {
				return truncatedGeometric(ctx, a.Rat("alpha"), a.Int("n"), a.Int("sensitivity"))
			},
		},
		{
			Name:       "untruncated_geometric",
			ParamArgs:  []string{"alpha"},
			Parametric: paramUntruncatedGeometric,
			Bits:       func(a *Args) float64 { return geometricTableBits(a.Rat("alpha"), f(a.Int("n")+1)) },
			Size:       func(a *Args) (float64, float64) { n := f(a.Int("n")) + 1; return 2*n + 2, n * (n + 2) },
			Doc:        "the alpha-geometric mechanism over {0..n} without truncation: outputs on all of ℤ, those below 0 and above n merged (their ratios are constant) (Model Checking Differentially Private Properties)",
			Params:     []Param{geoAlpha, largest, sensitivity},
			Build: func(ctx context.Context, a *Args) (*model.Mechanism, error) {
				return geometric(ctx, a.Rat("alpha"), a.Int("n"), a.Int("sensitivity"))
			},
		},
		{
			Name:       "above_threshold_untruncated",
			ParamArgs:  []string{"alpha_t", "alpha_q"},
			Parametric: paramUntruncatedThreshold,
			Bits:       untruncatedThresholdBits,
			Size: func(a *Args) (float64, float64) {
				n, k := f(a.Int("n"))+1, f(a.Int("k"))
				return n*n + k + 1, n * n * (k + 1)
			},
			Doc:    "above threshold as published, its noise untruncated: at most k queries, each answering d, against the threshold t (Understanding the Sparse Vector Technique for Differential Privacy, Algorithm 1 with one ⊤)",
			Params: []Param{alphaT, alphaQ, untruncatedN, untruncatedQueries, cmpShort},
			Build: func(ctx context.Context, a *Args) (*model.Mechanism, error) {
				return aboveThresholdUntruncated(ctx, a.Rat("alpha_t"), a.Rat("alpha_q"), a.Int("n"), a.Int("k"), thresholdCmp(a), a.Limits().MaxBits)
			},
		},
		{
			Name:       "above_threshold",
			ParamArgs:  []string{"alpha_q"},
			Parametric: paramThreshold,
			Bits:       aboveThresholdBits,
			Size: func(a *Args) (float64, float64) {
				return sharedThresholdSize(a.Int("n"), a.Int("k"))
			},
			Doc: "the paper's online model with at most k queries (Model Checking Differentially Private Properties, Algorithm 1)",
			Params: []Param{
				alphaT, alphaQ,
				thresholdN,
				queries,
				{Name: "cmp", Kind: Choice, Default: ">=", Choices: []string{">=", ">"}, Doc: `halt when the noisy answer is ">=" (the paper's prose) or ">" (its pseudocode) the noisy threshold`},
			},
			Build: func(ctx context.Context, a *Args) (*model.Mechanism, error) {
				return aboveThresholdShared(ctx, a.Rat("alpha_t"), a.Rat("alpha_q"), a.Int("n"), a.Int("k"), thresholdCmp(a))
			},
		},
		{
			Name:   "above_threshold_loop",
			Bits:   aboveThresholdLoopBits,
			Size:   func(a *Args) (float64, float64) { n := f(a.Int("n")) + 1; return 3*n*n + 1, 2*n*n*n + 3*n*n },
			Doc:    "the paper's online model as a loop over an unbounded stream of queries; observe ⊥/⊤ traces (Model Checking Differentially Private Properties)",
			Params: []Param{alphaT, alphaQ, thresholdN, cmpShort},
			Build: func(ctx context.Context, a *Args) (*model.Mechanism, error) {
				return aboveThresholdLoop(ctx, a.Rat("alpha_t"), a.Rat("alpha_q"), a.Int("n"), thresholdCmp(a))
			},
		},
		{
			Name: "above_threshold_mdp",
			MDP:  true,
			Bits: aboveThresholdMDPBits,
			Size: func(a *Args) (float64, float64) {
				n1 := f(a.Int("n")) + 1
				acts := 3*n1 - 2
				states := 1 + 2*n1 + 2*n1*n1
				return states, states + 4*n1*acts + 2*n1*n1*acts*(n1+1)
			},
			Doc: "the paper's above threshold as an MDP: the analyst picks each query's answers on the dataset (role 0) and its neighbour (role 1); observe ⊥ (bot) and ⊤ (top)",
			Params: []Param{
				alphaT, alphaQ,
				{Name: "n", Kind: Integer, Default: "5", Doc: "thresholds and answers range over {0..n}"},
				cmpShort,
			},
			Build: func(ctx context.Context, a *Args) (*model.Mechanism, error) {
				return aboveThresholdMDP(ctx, a.Rat("alpha_t"), a.Rat("alpha_q"), a.Int("n"), thresholdCmp(a))
			},
		},
		{
			Name: "interactive_survey",
			MDP:  true,
			Bits: func(*Args) float64 { return 24 },
			Size: func(a *Args) (float64, float64) {
				w := math.Pow(2, f(a.Int("questions")))
				return 3*w - 2, 3*w - 2 + 8*(w-1)
			},
			Doc: "the paper's interactive survey as an MDP: questions answers, each low (L: 3/4 vs 1/4) or high accuracy (H: 4/5 vs 1/5) as the analyst chooses",
			Params: []Param{
				{Name: "questions", Kind: Integer, Default: "1", Doc: "number of questions the analyst asks"},
			},
			Build: func(ctx context.Context, a *Args) (*model.Mechanism, error) {
				return interactiveSurvey(ctx, a.Int("questions"))
			},
		},
		{
			Name: "randomized_response",
			Bits: randomizedResponseBits,
			Size: func(a *Args) (float64, float64) { k := f(a.Int("k")); return 2 * k, k*k + k },
			Doc:  "k-ary randomized response: truthful with probability theta1, else uniform over k values (the notes Differential Privacy)",
			Params: []Param{
				{Name: "theta1", Kind: Rational, Default: "1/2", Doc: "probability of answering truthfully"},
				{Name: "k", Kind: Integer, Default: "2", Doc: "number of possible answers"},
			},
			Build: func(ctx context.Context, a *Args) (*model.Mechanism, error) {
				return randomizedResponseK(ctx, a.Rat("theta1"), a.Int("k"))
			},
		},
		{
			Name: "compose",
			Bits: func(*Args) float64 { return 0 }, // it shares the model's probabilities
			Size: func(a *Args) (float64, float64) { return composeSize(a.Int("k"), a.Model("model")) },
			Doc:  "k independent runs of a model on the same input, every output observed (the notes Differential Privacy)",
			Params: []Param{
				{Name: "k", Kind: Integer, Doc: "number of runs"},
				{Name: "model", Kind: Model, Doc: "the mechanism to run, e.g. survey()"},
			},
			Build: func(ctx context.Context, a *Args) (*model.Mechanism, error) {
				return Composition{Runs: a.Int("k"), Of: a.Model("model")}.Product(ctx, a.Limits())
			},
			Composition: func(a *Args) Composition { return Composition{Runs: a.Int("k"), Of: a.Model("model")} },
		},
		{
			Name:       "yarrow_geometric",
			ParamArgs:  []string{"alpha"},
			Parametric: paramYarrow,
			Bits:       yarrowBits,
			Size: func(a *Args) (float64, float64) {
				r := f(a.Int("count_max")-a.Int("count_min")) + 1
				b := f(a.Int("bits"))
				if b == 0 {
					b = r - 1
				}
				return r * (4 + 2*b), r * (4 + 4*b)
			},
			Doc: "yarrow's sampler for the truncated geometric mechanism, step by step (the Harvard Privacy Tools notes Geometric Mechanism)",
			Params: []Param{
				alphaEps,
				{Name: "count_min", Kind: Integer, Default: "0", Doc: "smallest count"},
				{Name: "count_max", Kind: Integer, Doc: "largest count"},
				{Name: "bits", Kind: Integer, Default: "0", Doc: "bit budget of the geometric draw; 0 means count_max - count_min, the notes' choice"},
			},
			Build: func(ctx context.Context, a *Args) (*model.Mechanism, error) {
				return yarrowGeometric(ctx, a.Rat("alpha"), a.Int("count_min"), a.Int("count_max"), a.Int("bits"))
			},
		},
		{
			Name: "laplace_decision",
			Bits: laplaceDecisionBits,
			Size: decisionSize,
			Doc:  "yes/no decision N + Lap(1/ε) >= k over counts lo..hi (Implementation of Stochastic Decision, §4)",
			Params: []Param{
				alphaEps,
				{Name: "k", Kind: Integer, Doc: "threshold"},
				countLo,
				countHi,
			},
			Build: func(ctx context.Context, a *Args) (*model.Mechanism, error) {
				return laplaceDecision(ctx, a.Rat("alpha"), a.Int("k"), a.Int("lo"), a.Int("hi"))
			},
		},
		{
			Name:       "cutoff_decision",
			ParamArgs:  []string{"alpha"},
			Parametric: paramCutoff,
			Bits:       cutoffDecisionBits,
			Size:       decisionSize,
			Doc:        "cutoff exponential decision: Pr[yes] = α^(m-N) up to m, 1 above (Implementation of Stochastic Decision, §5)",
			Params: []Param{
				alphaEps,
				{Name: "m", Kind: Integer, Doc: "minimum count"},
				countLo,
				countHi,
			},
			Build: func(ctx context.Context, a *Args) (*model.Mechanism, error) {
				return cutoffDecision(ctx, a.Rat("alpha"), a.Int("m"), a.Int("lo"), a.Int("hi"))
			},
		},
		{
			Name: "generalized_decision",
			Bits: generalizedDecisionBits,
			Size: decisionSize,
			Doc:  "the decision that spends δ, built from the notes' recursion around p0 (Implementation of Stochastic Decision, §6)",
			Params: []Param{
				alphaEps,
				{Name: "delta", Kind: Rational, Doc: "δ"},
				{Name: "m", Kind: Integer, Doc: "the count where Pr[yes] = p0"},
				countLo,
				countHi,
			},
			Build: func(ctx context.Context, a *Args) (*model.Mechanism, error) {
				return generalizedDecision(ctx, a.Rat("alpha"), a.Rat("delta"), a.Int("m"), a.Int("lo"), a.Int("hi"))
			},
		},
		{
			Name: "streaming_sum",
			Bits: streamingSumBits,
			Size: func(a *Args) (float64, float64) { r := f(a.Int("rows")); return 2*r*r + 2*r, 4*r*r + 4*r },
			Doc:  "the block sum of Composition Theorem for streaming CW-privacy, Theorem 1: private row ±1 plus rows-1 random rows",
			Params: []Param{
				{Name: "rows", Kind: Integer, Doc: "rows in the block (cn), the private row included"},
				{Name: "p", Kind: Rational, Doc: "probability that a row is +1"},
			},
			Build: func(ctx context.Context, a *Args) (*model.Mechanism, error) {
				return streamingSum(ctx, a.Int("rows"), a.Rat("p"))
			},
		},
	}
	sort.Slice(defs, func(i, j int) bool { return defs[i].Name < defs[j].Name })
	return defs
}

// Lookup returns the builder with the given name.
func Lookup(name string) (*Def, bool) {
	for _, d := range Catalog() {
		if d.Name == name {
			return d, true
		}
	}
	return nil, false
}

func decisionSize(a *Args) (float64, float64) {
	w := f(a.Int("hi")-a.Int("lo")) + 1
	return w + 2, 2*w + 2
}

// composeSize bounds the states of k runs of m: every input, every state,
// every sequence of earlier outputs, and the final tuples.
func composeSize(k int, m *model.Mechanism) (float64, float64) {
	if m == nil || k < 1 {
		return 0, 0
	}
	c := m.Chain
	outs := f(len(c.Absorbing()))
	states := f(len(c.Inputs()))*f(c.NumStates())*math.Pow(outs, f(k-1)) + math.Pow(outs, f(k))
	perState := f(c.NumTransitions()) / f(c.NumStates())
	return states, states * (perState + 1)
}

// Limits returns the limits the arguments were checked against.
func (a *Args) Limits() model.Limits { return a.limits }
