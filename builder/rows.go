package builder

import (
	"context"
	"math/big"
	"strings"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/poly"
)

// Sink receives a mechanism's states and transitions as its rows function
// writes them, once, over a number field T: *chain.Builder is the Sink of
// the rationals (one parameter value) and a Table keeps them for any T
// (poly.RatFunc: every value of a parameter at once). A zero probability
// is no transition.
type Sink[T any] interface {
	AddState(name string, v chain.Valuation, labels ...string) int
	MarkInput(s int)
	AddTransition(from, to int, p T)
	// AddRow adds the transitions from state from to to[i] with p[i], as
	// AddTransition does one by one (a long row at the cost of one call),
	// and owns both slices.
	AddRow(from int, to []int, p []T)
}

var _ Sink[*big.Rat] = (*chain.Builder)(nil)

// Entry is one transition of a Table's row.
type Entry[T any] struct {
	To int
	P  T
}

// Table is the Sink that keeps a mechanism's states, rows and neighbours
// as written, for any number field.
type Table[T any] struct {
	Names      []string
	Vals       []chain.Valuation
	Labels     [][]string
	Inputs     []int
	Rows       [][]Entry[T]
	Neighbours [][2]int
	isZero     func(T) bool
}

// NewTable returns an empty Table whose zero probabilities (f.IsZero) are
// dropped.
func NewTable[T any](f exact.Field[T]) *Table[T] { return &Table[T]{isZero: f.IsZero} }

// AddState adds a state and returns its index.
func (t *Table[T]) AddState(name string, v chain.Valuation, labels ...string) int {
	t.Names, t.Vals, t.Labels = append(t.Names, name), append(t.Vals, v), append(t.Labels, labels)
	t.Rows = append(t.Rows, nil)
	return len(t.Names) - 1
}

// MarkInput marks s as an input.
func (t *Table[T]) MarkInput(s int) { t.Inputs = append(t.Inputs, s) }

// AddTransition adds a transition unless p is zero.
func (t *Table[T]) AddTransition(from, to int, p T) {
	if !t.isZero(p) {
		t.Rows[from] = append(t.Rows[from], Entry[T]{To: to, P: p})
	}
}

// AddRow adds the transitions to to[i] with p[i] that are not zero.
func (t *Table[T]) AddRow(from int, to []int, p []T) {
	for i, x := range p {
		t.AddTransition(from, to[i], x)
	}
}

// ops is a Field that keeps its first error: after one, every operation
// returns T's zero value, and the caller reports err once, at the end.
type ops[T any] struct {
	F   exact.Field[T]
	err error
}

// do returns op(a, b) and keeps its error, or a after an earlier error.
func (o *ops[T]) do(op func(a, b T) (T, error), a, b T) T {
	if o.err != nil {
		return a
	}
	r, err := op(a, b)
	o.err = err
	return r
}

func (o *ops[T]) add(a, b T) T { return o.do(o.F.Add, a, b) }
func (o *ops[T]) sub(a, b T) T { return o.do(o.F.Sub, a, b) }
func (o *ops[T]) mul(a, b T) T { return o.do(o.F.Mul, a, b) }
func (o *ops[T]) quo(a, b T) T { return o.do(o.F.Quo, a, b) }
func (o *ops[T]) one() T       { return o.F.Const(one) }
func (o *ops[T]) num(a, b int64) T {
	return o.F.Const(big.NewRat(a, b))
}

// pow returns x^j (j ≥ 0). For the rationals it is ratPow (one
// exponentiation, no gcd); for other fields, repeated squaring.
func (o *ops[T]) pow(x T, j int) T {
	if r, ok := any(x).(*big.Rat); ok {
		return any(ratPow(r, j)).(T)
	}
	acc := o.one()
	for sq := x; j > 0; j >>= 1 {
		if j&1 == 1 {
			acc = o.mul(acc, sq)
		}
		if j > 1 {
			sq = o.mul(sq, sq)
		}
	}
	return acc
}

// Parametric is what a Def's Parametric builds with: the field of the
// rational functions of the parameter, and the argument it stands for.
type Parametric struct {
	Field poly.Field
	Arg   string
}

// Rat returns the rational argument name as a function of the parameter:
// the parameter itself for Arg, else the constant argument.
func (p Parametric) Rat(a *Args, name string) poly.RatFunc {
	if name == p.Arg {
		return p.Field.X()
	}
	return p.Field.Const(a.Rat(name))
}

// table runs a mechanism's rows function into a Table of rational
// functions, with the neighbours it returns.
func (p Parametric) table(rows func(s Sink[poly.RatFunc]) ([][2]int, error)) (*Table[poly.RatFunc], error) {
	t := NewTable[poly.RatFunc](p.Field)
	pairs, err := rows(t)
	if err != nil {
		return nil, err
	}
	t.Neighbours = pairs
	return t, nil
}

// rats builds a mechanism's rows over the rationals, then its chain: the
// mechanism, its neighbours those rows returns, described by note.
func rats(ctx context.Context, note string, rows func(s Sink[*big.Rat]) ([][2]int, error)) (*model.Mechanism, error) {
	b := chain.NewBuilder()
	pairs, err := rows(b)
	if err != nil {
		return nil, err
	}
	c, err := buildChain(ctx, b)
	if err != nil {
		return nil, err
	}
	return &model.Mechanism{Chain: c, Neighbours: pairs, Note: note}, nil
}

// ParamArg says whether the argument arg of d may be the parameter of a
// model for every parameter value.
func (d *Def) ParamArg(arg string) bool {
	for _, a := range d.ParamArgs {
		if a == arg {
			return true
		}
	}
	return false
}

// ParamBuilders lists, for a person, the builder arguments that may be the
// parameter: "above_threshold(alpha_q = …), …, and yarrow_geometric(alpha
// = …)", from the catalogue.
func ParamBuilders() string {
	var calls []string
	for _, d := range Catalog() {
		var args []string
		for _, a := range d.ParamArgs {
			args = append(args, d.Name+"("+a+" = …)")
		}
		if args != nil {
			calls = append(calls, strings.Join(args, " or "))
		}
	}
	if len(calls) > 1 {
		calls[len(calls)-1] = "and " + calls[len(calls)-1]
	}
	return strings.Join(calls, ", ")
}
