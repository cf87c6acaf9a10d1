package chain_test

import (
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/google/go-cmp/cmp"
	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/graph/testgraph"
	"gonum.org/v1/gonum/graph/topo"
)

var ratCmp = cmp.Comparer(func(x, y *big.Rat) bool { return x.Cmp(y) == 0 })

func r(s string) *big.Rat {
	x, ok := new(big.Rat).SetString(s)
	if !ok {
		panic("bad rational " + s)
	}
	return x
}

// survey builds the paper's survey chain (Figure 2).
func survey(t *testing.T) *chain.Chain {
	t.Helper()
	b := chain.NewBuilder()
	pos := b.AddState("pos", chain.Valuation{{"x", 1}}, "in_pos")
	neg := b.AddState("neg", chain.Valuation{{"x", 0}}, "in_neg")
	yes := b.AddState("yes", nil, "out_Y")
	no := b.AddState("no", nil, "out_N")
	b.AddTransition(pos, yes, r("3/4"))
	b.AddTransition(pos, no, r("1/4"))
	b.AddTransitionTo(neg, "yes", r("1/4"))
	b.AddTransitionTo(neg, "no", r("3/4"))
	b.MarkInput(pos)
	b.MarkInput(neg)
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestSurveyChain(t *testing.T) {
	c := survey(t)
	if got, want := c.NumStates(), 4; got != want {
		t.Errorf("NumStates = %d, want %d", got, want)
	}
	if got, want := c.NumTransitions(), 6; got != want { // 4 + two self-loops
		t.Errorf("NumTransitions = %d, want %d", got, want)
	}
	to, p := c.Row(0)
	if diff := cmp.Diff([]int{2, 3}, to); diff != "" {
		t.Errorf("Row(pos) targets (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]*big.Rat{r("3/4"), r("1/4")}, p, ratCmp); diff != "" {
		t.Errorf("Row(pos) probabilities (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(r("1/4"), c.Prob(1, 2), ratCmp); diff != "" {
		t.Errorf("Prob(neg, yes): %s", diff)
	}
	if c.Prob(2, 3).Sign() != 0 {
		t.Errorf("Prob(yes, no) = %v, want 0", c.Prob(2, 3))
	}
	if diff := cmp.Diff([]int{2, 3}, c.Absorbing()); diff != "" {
		t.Errorf("Absorbing (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{0, 1}, c.Inputs()); diff != "" {
		t.Errorf("Inputs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{0, 1, 2}, c.Predecessors(2)); diff != "" {
		t.Errorf("Predecessors(yes) (-want +got):\n%s", diff)
	}
	if got, want := c.Describe(0), "pos (x=1)"; got != want {
		t.Errorf("Describe(pos) = %q, want %q", got, want)
	}
	if !c.HasLabel(2, "out_Y") || c.HasLabel(2, "out_N") {
		t.Errorf("labels of yes = %v", c.Labels(2))
	}
	if diff := cmp.Diff([]string{"in_neg", "in_pos", "out_N", "out_Y"}, c.LabelNames()); diff != "" {
		t.Errorf("LabelNames (-want +got):\n%s", diff)
	}
	if v, ok := c.Value(1, "x"); !ok || v != 0 {
		t.Errorf("Value(neg, x) = %d, %v", v, ok)
	}
	if _, ok := c.Sink(); ok {
		t.Error("survey chain has a sink")
	}
}

func TestSinkRemainder(t *testing.T) {
	b := chain.NewBuilder()
	a := b.AddState("a", nil)
	o := b.AddState("o", nil)
	b.AddTransition(a, o, r("2/3"))
	b.SendRemainderToSink(a)
	e := b.AddState("e", nil) // all of e's mass goes to the sink
	b.SendRemainderToSink(e)
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	sink, ok := c.Sink()
	if !ok || c.Name(sink) != chain.SinkName || !c.IsAbsorbing(sink) {
		t.Fatalf("sink = %d, %v", sink, ok)
	}
	if diff := cmp.Diff(r("1/3"), c.Prob(a, sink), ratCmp); diff != "" {
		t.Errorf("P(a, †): %s", diff)
	}
	if diff := cmp.Diff(r("1"), c.Prob(e, sink), ratCmp); diff != "" {
		t.Errorf("P(e, †): %s", diff)
	}
}

func TestDuplicatesMergedZerosDropped(t *testing.T) {
	b := chain.NewBuilder()
	a := b.AddState("a", nil)
	x := b.AddState("x", nil)
	y := b.AddState("y", nil)
	b.AddTransition(a, y, r("1/4"))
	b.AddTransition(a, x, r("1/4"))
	b.AddTransition(a, y, r("1/2"))
	b.AddTransition(a, a, r("0"))
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	to, p := c.Row(a)
	if diff := cmp.Diff([]int{x, y}, to); diff != "" {
		t.Errorf("targets (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]*big.Rat{r("1/4"), r("3/4")}, p, ratCmp); diff != "" {
		t.Errorf("probabilities (-want +got):\n%s", diff)
	}
}

// TestManyDuplicatesMerged: a row of 3000 probabilities to three targets
// in turn (as a lumped chain's rows are) is merged into one exact sum per
// target: terms 1/2^(k+2), 1/3^k and 1/2^(k+2), whose sums are known in
// closed form.
func TestManyDuplicatesMerged(t *testing.T) {
	b := chain.NewBuilder()
	a := b.AddState("a", nil)
	x := b.AddState("x", nil)
	y := b.AddState("y", nil)
	z := b.AddState("z", nil)
	const n = 1000
	half, third := new(big.Rat), new(big.Rat)
	for k := 1; k <= n; k++ {
		h := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), uint(k)))
		th := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(3), big.NewInt(int64(k)), nil))
		b.AddTransition(a, x, new(big.Rat).Quo(h, r("4")))
		b.AddTransition(a, y, th)
		b.AddTransition(a, z, new(big.Rat).Quo(h, r("4")))
		half.Add(half, h)
		third.Add(third, th)
	}
	// Σ 2^-k = 1 − 2^-n, Σ 3^-k = (1 − 3^-n)/2: the rest goes to the sink.
	b.SendRemainderToSink(a)
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	to, p := c.Row(a)
	wantHalf := new(big.Rat).Sub(r("1"), new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), n)))
	wantThird := new(big.Rat).Quo(new(big.Rat).Sub(r("1"), new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(3), big.NewInt(n), nil))), r("2"))
	if half.Cmp(wantHalf) != 0 || third.Cmp(wantThird) != 0 {
		t.Fatal("closed forms")
	}
	sink, _ := c.Sink()
	if diff := cmp.Diff([]int{x, y, z, sink}, to); diff != "" {
		t.Errorf("targets (-want +got):\n%s", diff)
	}
	quarter := new(big.Rat).Quo(wantHalf, r("4"))
	rest := new(big.Rat).Sub(r("1"), new(big.Rat).Add(new(big.Rat).Quo(wantHalf, r("2")), wantThird))
	if diff := cmp.Diff([]*big.Rat{quarter, wantThird, quarter, rest}, p, ratCmp); diff != "" {
		t.Errorf("probabilities (-want +got):\n%s", diff)
	}
}

func TestBuildErrors(t *testing.T) {
	tests := []struct {
		name  string
		build func(b *chain.Builder)
		want  []string
		kinds []chain.ErrorKind
	}{
		{
			name: "duplicate state",
			build: func(b *chain.Builder) {
				b.AddState("a", nil)
				b.AddState("a", nil)
			},
			want:  []string{`state "a": duplicate state name`},
			kinds: []chain.ErrorKind{chain.DuplicateState},
		},
		{
			name: "unknown target",
			build: func(b *chain.Builder) {
				a := b.AddState("a", nil)
				b.AddTransitionTo(a, "nowhere", r("1"))
			},
			want:  []string{`state "a", transition to "nowhere": transition to unknown state`},
			kinds: []chain.ErrorKind{chain.UnknownState},
		},
		{
			name: "bad ID",
			build: func(b *chain.Builder) {
				a := b.AddState("a", nil)
				b.AddTransition(a, 7, r("1"))
			},
			want:  []string{`state "a", transition to "#7": no such state`},
			kinds: []chain.ErrorKind{chain.UnknownState},
		},
		{
			name: "bad source ID",
			build: func(b *chain.Builder) {
				a := b.AddState("a", nil)
				b.AddTransition(-1, a, r("1"))
			},
			want:  []string{`state "#-1": no such state`},
			kinds: []chain.ErrorKind{chain.UnknownState},
		},
		{
			name: "negative",
			build: func(b *chain.Builder) {
				a := b.AddState("a", nil)
				x := b.AddState("x", nil)
				b.AddTransition(a, x, r("5/4"))
				b.AddTransition(a, a, r("-1/4"))
			},
			want: []string{
				`state "a", transition to "x": probability 5/4 is greater than 1`,
				`state "a", transition to "a": probability -1/4 is negative`,
			},
			kinds: []chain.ErrorKind{chain.ProbabilityAboveOne, chain.NegativeProbability},
		},
		{
			name: "row sums below 1",
			build: func(b *chain.Builder) {
				a := b.AddState("a", nil)
				x := b.AddState("x", nil)
				b.AddTransition(a, x, r("1/3"))
				b.AddTransition(a, a, r("1/3"))
			},
			want:  []string{`state "a": probabilities sum to 2/3, not 1 (missing 1/3; send the rest to the sink to allow this)`},
			kinds: []chain.ErrorKind{chain.RowSum},
		},
		{
			name: "row sums above 1",
			build: func(b *chain.Builder) {
				a := b.AddState("a", nil)
				x := b.AddState("x", nil)
				b.AddTransition(a, x, r("3/4"))
				b.AddTransition(a, a, r("1/2"))
			},
			want:  []string{`state "a": probabilities sum to 5/4, not 1 (excess 1/4)`},
			kinds: []chain.ErrorKind{chain.RowSum},
		},
		{
			name: "above 1 even with a sink",
			build: func(b *chain.Builder) {
				a := b.AddState("a", nil)
				b.AddTransition(a, a, r("1/2"))
				b.AddTransition(a, a, r("2/3"))
				b.SendRemainderToSink(a)
			},
			want:  []string{`state "a": probabilities sum to 7/6, not 1 (excess 1/6)`},
			kinds: []chain.ErrorKind{chain.RowSum},
		},
		{
			name: "reserved and empty names",
			build: func(b *chain.Builder) {
				b.AddState(chain.SinkName, nil)
				b.AddState("", nil)
				b.AddState("l", nil, "")
			},
			want: []string{
				`state "†": the name † is reserved for the sink state`,
				`state "": empty state name`,
				`state "l": empty label`,
			},
			kinds: []chain.ErrorKind{chain.BadName, chain.BadName, chain.BadName},
		},
		{
			name: "nil probability",
			build: func(b *chain.Builder) {
				a := b.AddState("a", nil)
				b.AddTransition(a, a, nil)
			},
			want:  []string{`state "a", transition to "a": missing probability`},
			kinds: []chain.ErrorKind{chain.NilProbability},
		},
		{
			name: "all at once",
			build: func(b *chain.Builder) {
				a := b.AddState("a", nil)
				b.AddState("a", nil)
				c := b.AddState("c", nil)
				b.AddTransition(c, a, r("1/2"))
				b.AddTransitionTo(a, "ghost", r("1"))
			},
			want: []string{
				`state "a": duplicate state name`,
				`state "a", transition to "ghost": transition to unknown state`,
				`state "c": probabilities sum to 1/2, not 1 (missing 1/2; send the rest to the sink to allow this)`,
			},
			kinds: []chain.ErrorKind{chain.DuplicateState, chain.UnknownState, chain.RowSum},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := chain.NewBuilder()
			tt.build(b)
			c, err := b.Build()
			if err == nil {
				t.Fatalf("Build succeeded with %d states, want errors", c.NumStates())
			}
			list, ok := err.(chain.ErrorList)
			if !ok {
				t.Fatalf("error is %T, want chain.ErrorList", err)
			}
			var got []string
			var kinds []chain.ErrorKind
			for _, e := range list {
				got = append(got, e.Error())
				kinds = append(kinds, e.Kind)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.kinds, kinds); diff != "" {
				t.Errorf("kinds (-want +got):\n%s", diff)
			}
			if want := strings.Join(tt.want, "\n"); err.Error() != want {
				t.Errorf("Error() = %q, want %q", err.Error(), want)
			}
		})
	}
}

func TestErrorListErr(t *testing.T) {
	if err := chain.ErrorList(nil).Err(); err != nil {
		t.Errorf("empty list Err() = %v, want nil", err)
	}
}

func randRat(rng *rand.Rand) *big.Rat {
	switch rng.IntN(3) {
	case 0: // geometric-style denominators c·2^k
		return new(big.Rat).SetFrac(big.NewInt(rng.Int64N(7)+1), new(big.Int).Lsh(big.NewInt(3), uint(rng.IntN(200))))
	case 1:
		return big.NewRat(rng.Int64N(1000)-300, rng.Int64N(1000)+1)
	default:
		num := new(big.Int).Lsh(big.NewInt(rng.Int64N(1<<40)), uint(rng.IntN(60)))
		den := new(big.Int).Exp(big.NewInt(rng.Int64N(20)+2), big.NewInt(rng.Int64N(40)), nil)
		return new(big.Rat).SetFrac(num, den)
	}
}

// TestAccumulatorAddProduct checks sums of products, mixed with plain
// terms, against big.Rat, including a single product that is not in lowest
// terms (2/3·3/4 = 1/2) and zero factors.
func TestAccumulatorAddProduct(t *testing.T) {
	var acc chain.Accumulator
	acc.AddProduct(big.NewRat(2, 3), big.NewRat(3, 4))
	if got := acc.Rat(nil); got.Num().Int64() != 1 || got.Denom().Int64() != 2 {
		t.Fatalf("2/3·3/4 = %s, want 1/2", got.RatString())
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 500 {
		want := new(big.Rat)
		acc.Reset()
		for range rng.IntN(30) {
			x, y := randRat(rng), randRat(rng)
			if rng.IntN(5) == 0 {
				want.Add(want, x)
				acc.Add(x)
				continue
			}
			want.Add(want, new(big.Rat).Mul(x, y))
			acc.AddProduct(x, y)
		}
		got := acc.Rat(nil)
		if got.Cmp(want) != 0 || got.Denom().Cmp(want.Denom()) != 0 {
			t.Fatalf("trial %d: sum of products = %s, want %s", trial, got.RatString(), want.RatString())
		}
	}
}

// TestAccumulatorMatchesRatAdd checks the fast exact sum against big.Rat.Add
// on random rationals of every shape the builders produce.
func TestAccumulatorMatchesRatAdd(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var acc chain.Accumulator
	for trial := range 500 {
		n := rng.IntN(40)
		xs := make([]*big.Rat, n)
		want := new(big.Rat)
		acc.Reset()
		for i := range xs {
			xs[i] = randRat(rng)
			want.Add(want, xs[i])
			acc.Add(xs[i])
		}
		if got := acc.Rat(nil); got.Cmp(want) != 0 {
			t.Fatalf("trial %d: Accumulator sum = %s, want %s", trial, got.RatString(), want.RatString())
		}
		if got := chain.Sum(xs); got.Cmp(want) != 0 {
			t.Fatalf("trial %d: Sum = %s, want %s", trial, got.RatString(), want.RatString())
		}
		probe := randRat(rng)
		if got, want := acc.Cmp(probe), want.Cmp(probe); got != want {
			t.Fatalf("trial %d: Cmp = %d, want %d", trial, got, want)
		}
		if got, want := acc.Cmp(want), 0; got != want {
			t.Fatalf("trial %d: Cmp(sum) = %d, want 0", trial, got)
		}
	}
}

// TestGraphSCC checks that gonum's Tarjan SCC runs on the view, self-loops
// included, and finds a cycle.
func TestGraphSCC(t *testing.T) {
	b := chain.NewBuilder()
	s := b.AddState("s", nil)
	u := b.AddState("u", nil)
	v := b.AddState("v", nil)
	o := b.AddState("o", nil)
	b.AddTransition(s, u, r("1"))
	b.AddTransition(u, v, r("1/2"))
	b.AddTransition(u, o, r("1/2"))
	b.AddTransition(v, u, r("1"))
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	var got [][]int64
	for _, scc := range topo.TarjanSCC(c.Graph()) {
		var ids []int64
		for _, n := range scc {
			ids = append(ids, n.ID())
		}
		slices.Sort(ids)
		got = append(got, ids)
	}
	// Tarjan returns components in reverse topological order.
	want := [][]int64{{int64(o)}, {int64(u), int64(v)}, {int64(s)}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("SCCs (-want +got):\n%s", diff)
	}
	g := c.Graph()
	if !g.HasEdgeFromTo(int64(o), int64(o)) {
		t.Error("absorbing state o has no self-loop in the graph view")
	}
	e, ok := g.Edge(int64(u), int64(v)).(chain.Edge)
	if !ok || e.P.Cmp(r("1/2")) != 0 {
		t.Errorf("Edge(u, v) = %#v", g.Edge(int64(u), int64(v)))
	}
}

// chainBuilder adapts the chain view to gonum's testgraph suite: node IDs are
// renumbered densely, each node's edges get equal probability and nodes
// without edges get the self-loop the chain adds.
func chainBuilder(nodes []graph.Node, edges []testgraph.WeightedLine, _, _ float64) (graph.Graph, []graph.Node, []testgraph.Edge, float64, float64, bool) {
	ids := map[int64]bool{}
	for _, n := range nodes {
		ids[n.ID()] = true
	}
	for _, e := range edges {
		ids[e.From().ID()] = true
		ids[e.To().ID()] = true
	}
	sorted := make([]int64, 0, len(ids))
	for id := range ids {
		sorted = append(sorted, id)
	}
	slices.Sort(sorted)
	dense := map[int64]int{}
	for i, id := range sorted {
		dense[id] = i
	}
	succ := make([]map[int]bool, len(sorted))
	for i := range succ {
		succ[i] = map[int]bool{}
	}
	for _, e := range edges {
		succ[dense[e.From().ID()]][dense[e.To().ID()]] = true
	}
	b := chain.NewBuilder()
	for i := range sorted {
		b.AddState(string(rune('a'+i%26))+string(rune('0'+i/26)), nil)
	}
	var outEdges []testgraph.Edge
	var outNodes []graph.Node
	for i := range sorted {
		outNodes = append(outNodes, simple.Node(i))
		if len(succ[i]) == 0 {
			succ[i][i] = true
		}
		for j := range succ[i] {
			b.AddTransition(i, j, big.NewRat(1, int64(len(succ[i]))))
			outEdges = append(outEdges, simple.Edge{F: simple.Node(i), T: simple.Node(j)})
		}
	}
	c, err := b.Build()
	if err != nil {
		return nil, nil, nil, 0, 0, false
	}
	return c.Graph(), outNodes, outEdges, 0, 0, true
}

func TestGraphContract(t *testing.T) {
	t.Run("ReturnAllNodes", func(t *testing.T) { testgraph.ReturnAllNodes(t, chainBuilder, true) })
	t.Run("NodeExistence", func(t *testing.T) { testgraph.NodeExistence(t, chainBuilder) })
	t.Run("EdgeExistence", func(t *testing.T) { testgraph.EdgeExistence(t, chainBuilder, false) })
	t.Run("ReturnAdjacentNodes", func(t *testing.T) { testgraph.ReturnAdjacentNodes(t, chainBuilder, true, false) })
}

// TestArithMatchesBigRat checks Mul and OneMinus against big.Rat on random
// rationals, including zero, negatives, integers and shared values.
func TestArithMatchesBigRat(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	vals := []*big.Rat{r("0"), r("1"), r("-1"), r("999/1000"), r("1/2"), r("-7/3"), r("6")}
	for range 300 {
		vals = append(vals, randRat(rng))
	}
	for i, x := range vals {
		for _, y := range vals[max(0, i-20) : i+1] {
			want := new(big.Rat).Mul(x, y)
			got := exact.Mul(x, y)
			if got.Cmp(want) != 0 || got.Num().Cmp(want.Num()) != 0 || got.Denom().Cmp(want.Denom()) != 0 {
				t.Fatalf("Mul(%s, %s) = %s, want %s", x.RatString(), y.RatString(), got.RatString(), want.RatString())
			}
		}
		want := new(big.Rat).Sub(big.NewRat(1, 1), x)
		got := exact.OneMinus(x)
		if got.Cmp(want) != 0 || got.Denom().Cmp(want.Denom()) != 0 {
			t.Fatalf("OneMinus(%s) = %s, want %s", x.RatString(), got.RatString(), want.RatString())
		}
		// The result is independent of its arguments.
		got.Add(got, big.NewRat(1, 1))
		if x.Cmp(vals[i]) != 0 {
			t.Fatal("OneMinus aliases its argument")
		}
	}
	// Powers of α = 999/1000 stay exact.
	p := big.NewRat(1, 1)
	q := big.NewRat(1, 1)
	a := r("999/1000")
	for range 200 {
		p = exact.Mul(p, a)
		q.Mul(q, a)
	}
	if p.Cmp(q) != 0 {
		t.Fatal("α^200 differs")
	}
}

func TestWithInputs(t *testing.T) {
	b := chain.NewBuilder()
	a := b.AddState("a", nil)
	x := b.AddState("x", nil)
	y := b.AddState("y", nil)
	b.AddTransition(a, x, big.NewRat(1, 2))
	b.AddTransition(a, y, big.NewRat(1, 2))
	b.MarkInput(a)
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	d := c.WithInputs([]int{y, a, y})
	if got := d.Inputs(); len(got) != 2 || got[0] != a || got[1] != y || !d.IsInput(y) || d.IsInput(x) {
		t.Errorf("inputs %v", got)
	}
	if got := c.Inputs(); len(got) != 1 || got[0] != a || c.IsInput(y) {
		t.Errorf("the original chain changed: inputs %v", got)
	}
	if d.NumTransitions() != c.NumTransitions() || d.Prob(a, x).Cmp(big.NewRat(1, 2)) != 0 || len(d.Predecessors(x)) != len(c.Predecessors(x)) {
		t.Error("the rows differ")
	}
}

// TestGrowRow: a row given room in advance is the same row; GrowRow of an
// unknown state or of nothing is ignored.
func TestGrowRow(t *testing.T) {
	b := chain.NewBuilder()
	s := b.AddState("s", nil)
	u := b.AddState("u", nil)
	b.GrowRow(s, 2)
	b.GrowRow(7, 3)
	b.GrowRow(u, 0)
	b.AddTransition(s, u, r("1/3"))
	b.AddTransition(s, s, r("2/3"))
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	to, p := c.Row(s)
	if len(to) != 2 || to[0] != s || to[1] != u || p[0].Cmp(r("2/3")) != 0 || p[1].Cmp(r("1/3")) != 0 {
		t.Errorf("row of s: %v %v, want s: 2/3, u: 1/3", to, p)
	}
}
