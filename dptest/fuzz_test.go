package dptest_test

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/dptest"
	"github.com/google/go-cmp/cmp"
)

// A random sampler for FuzzExplore: a finite tree of choices with outputs
// at its leaves, where a leaf may also restart the sampler from its root
// (rejection sampling), and a node may call a sub-sampler (another such
// tree, reused or called inline) and go on by its output.

type nodeKind uint8

const (
	leafNode    nodeKind = iota
	restartNode          // back to the root of the tree (or sub-tree) it is in
	bitNode
	intNNode
	bernoulliNode
	subNode // calls sub, then goes on to kids[output % len(kids)]
)

type node struct {
	kind nodeKind
	out  int      // leafNode
	n    int      // intNNode
	p    *big.Rat // bernoulliNode
	sub  *node    // subNode
	key  int      // subNode: the key of Reuse
	kids []*node
}

// hugeP is a Bernoulli probability that does not fit in machine words.
var hugeP = r("1180591620717411303425/2361183241434822606851")

// decoder makes a tree of at most 40 nodes and depth 6 from bytes.
type decoder struct {
	data         []byte
	nodes, keys  int
	loops, reuse bool // a restart node, a sub-sampler node were made
}

func (d *decoder) byte() int {
	if len(d.data) == 0 {
		return 0
	}
	b := d.data[0]
	d.data = d.data[1:]
	return int(b)
}

// tree decodes a node; a root is never a restart or a leaf (so that every
// pass through a loop, and every call of a sub-sampler, makes a choice).
func (d *decoder) tree(depth, subs int, root bool) *node {
	b := d.byte()
	kind := nodeKind(b % 8)
	if d.nodes >= 40 || depth >= 6 {
		kind = leafNode
	}
	if kind == 6 {
		kind = bernoulliNode
	}
	if kind == 7 || kind == subNode && subs >= 2 {
		kind = leafNode
	}
	if kind == restartNode && root {
		kind = leafNode
	}
	if root && kind == leafNode {
		// IntN(1), a choice of one branch, then the leaf.
		d.nodes++
		return &node{kind: intNNode, n: 1, kids: []*node{{kind: leafNode, out: b / 8 % 5}}}
	}
	d.nodes++
	n := &node{kind: kind}
	nkids := 0
	switch kind {
	case leafNode:
		n.out = b / 8 % 5
	case restartNode:
		d.loops = true
	case bitNode:
		nkids = 2
	case intNNode:
		n.n = 1 + b/8%4
		nkids = n.n
	case bernoulliNode:
		c := 1 + b/8%7
		if c == 7 {
			n.p = hugeP
		} else {
			n.p = big.NewRat(int64(d.byte()%(c+1)), int64(c))
		}
		nkids = 2
	case subNode:
		d.reuse = true
		n.key = d.keys
		d.keys++
		n.sub = d.tree(0, subs+1, true)
		nkids = 1 + b/8%3
	}
	for range nkids {
		n.kids = append(n.kids, d.tree(depth+1, subs, false))
	}
	return n
}

func (n *node) String() string {
	switch n.kind {
	case leafNode:
		return fmt.Sprint(n.out)
	case restartNode:
		return "restart"
	}
	var b strings.Builder
	switch n.kind {
	case bitNode:
		b.WriteString("Bit")
	case intNNode:
		fmt.Fprintf(&b, "IntN(%d)", n.n)
	case bernoulliNode:
		fmt.Fprintf(&b, "Bernoulli(%s)", n.p.RatString())
	case subNode:
		fmt.Fprintf(&b, "Sub%d[%v]", n.key, n.sub)
	}
	b.WriteString("(")
	for i, k := range n.kids {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(k.String())
	}
	b.WriteString(")")
	return b.String()
}

// sampler runs the tree from root, until it reaches a leaf.
func sampler(root *node, reuse bool) func(*dptest.Rand) int {
	return func(r *dptest.Rand) int {
		n := root
		for {
			switch n.kind {
			case leafNode:
				return n.out
			case restartNode:
				n = root
			case bitNode:
				n = n.kids[map[bool]int{false: 0, true: 1}[r.Bit()]]
			case intNNode:
				n = n.kids[r.IntN(n.n)]
			case bernoulliNode:
				n = n.kids[map[bool]int{true: 0, false: 1}[r.Bernoulli(n.p)]]
			case subNode:
				var o int
				if reuse {
					o = dptest.Reuse(r, n.key, sampler(n.sub, true))
				} else {
					o = sampler(n.sub, false)(r)
				}
				n = n.kids[o%len(n.kids)]
			}
		}
	}
}

// pass is the exact distribution of one pass from n to a leaf: the
// probability of each output, and of a restart.
func pass(n *node) (map[int]*big.Rat, *big.Rat) {
	switch n.kind {
	case leafNode:
		return map[int]*big.Rat{n.out: big.NewRat(1, 1)}, new(big.Rat)
	case restartNode:
		return map[int]*big.Rat{}, big.NewRat(1, 1)
	}
	var branches []*big.Rat
	var kids []*node
	switch n.kind {
	case bitNode:
		branches, kids = []*big.Rat{big.NewRat(1, 2), big.NewRat(1, 2)}, n.kids
	case intNNode:
		for _, k := range n.kids {
			branches, kids = append(branches, big.NewRat(1, int64(n.n))), append(kids, k)
		}
	case bernoulliNode:
		branches, kids = []*big.Rat{n.p, new(big.Rat).Sub(big.NewRat(1, 1), n.p)}, n.kids
	case subNode:
		for o, p := range truth(n.sub) {
			branches, kids = append(branches, p), append(kids, n.kids[o%len(n.kids)])
		}
	}
	out, rho := map[int]*big.Rat{}, new(big.Rat)
	for i, k := range kids {
		ko, krho := pass(k)
		for o, p := range ko {
			if out[o] == nil {
				out[o] = new(big.Rat)
			}
			out[o].Add(out[o], new(big.Rat).Mul(branches[i], p))
		}
		rho.Add(rho, new(big.Rat).Mul(branches[i], krho))
	}
	return out, rho
}

// truth is the exact distribution of the sampler of root: a pass's
// outputs, renormalised by the geometric series of its restarts, or none
// if it restarts surely (a sub-stochastic distribution where it never
// ends).
func truth(root *node) map[int]*big.Rat {
	out, rho := pass(root)
	if rho.Cmp(big.NewRat(1, 1)) == 0 {
		return map[int]*big.Rat{}
	}
	norm := new(big.Rat).Sub(big.NewRat(1, 1), rho)
	for o, p := range out {
		if p.Sign() == 0 {
			delete(out, o)
			continue
		}
		p.Quo(p, norm)
	}
	return out
}

// simulate is an independent model of Explore's depth-first order and
// budget, for samplers that call their sub-samplers inline: it walks the
// tree unrolled, counting runs run, completed and cut, as Budget says.
type simulation struct {
	b          dptest.Budget
	min        *big.Rat // the pass's threshold
	run        int64    // runs run
	runs, cuts int64
	below      int64 // branches cut below min
	p          map[int]*big.Rat
	stopped    bool
}

// simulate models Explore's passes, as Budget says: one depth-first walk
// at each threshold of the deepening (2^−8, then 2^−8 lower while the
// passes at least double their runs, else by half the exponent; the last
// at MinProb), keeping the last that completed within Runs, or the first
// cut short when none did; it stops after a pass that cut nothing below
// its threshold.
func simulate(root *node, b dptest.Budget) *simulation {
	var kept *simulation
	ran := int64(0)
	for e := 8; ; {
		t, last := pow2(e), false
		if b.MinProb != nil && b.MinProb.Sign() > 0 && t.Cmp(b.MinProb) <= 0 {
			t, last = b.MinProb, true
		}
		s := &simulation{b: b, min: t, p: map[int]*big.Rat{}}
		s.visit(root, 0, big.NewRat(1, 1), []frame{{root: root}})
		if s.stopped {
			if kept == nil {
				return s
			}
			return kept
		}
		kept = s
		if last || s.below == 0 {
			return kept
		}
		if s.run < 2*ran {
			e += max(8, e/2)
		} else {
			e += 8
		}
		ran = s.run
	}
}

// frame is a tree being walked: its root (where a restart goes) and where
// its caller goes on with its output (none for the sampler's own tree).
type frame struct {
	root *node
	kids []*node
}

// runRun counts a run run, unless the budget has no run left.
func (s *simulation) runRun() bool {
	if s.run >= s.b.Runs {
		s.stopped = true
		return false
	}
	s.run++
	return true
}

func (s *simulation) visit(n *node, k int, p *big.Rat, stack []frame) {
	if s.stopped {
		return
	}
	top := stack[len(stack)-1]
	switch n.kind {
	case leafNode:
		if len(stack) == 1 {
			if s.runRun() {
				s.runs++
				if s.p[n.out] == nil {
					s.p[n.out] = new(big.Rat)
				}
				s.p[n.out].Add(s.p[n.out], p)
			}
			return
		}
		s.visit(top.kids[n.out%len(top.kids)], k, p, stack[:len(stack)-1])
		return
	case restartNode:
		s.visit(top.root, k, p, stack)
		return
	case subNode:
		s.visit(n.sub, k, p, append(stack[:len(stack):len(stack)], frame{root: n.sub, kids: n.kids}))
		return
	}
	if k >= s.b.Depth { // the run asks for one choice too many
		if s.runRun() {
			s.cuts++
		}
		return
	}
	var probs []*big.Rat
	switch n.kind {
	case bitNode:
		probs = []*big.Rat{big.NewRat(1, 2), big.NewRat(1, 2)}
	case intNNode:
		for range n.n {
			probs = append(probs, big.NewRat(1, int64(n.n)))
		}
	case bernoulliNode:
		probs = []*big.Rat{n.p, new(big.Rat).Sub(big.NewRat(1, 1), n.p)}
	}
	first := true
	for i, bp := range probs {
		if bp.Sign() == 0 {
			continue
		}
		q := new(big.Rat).Mul(p, bp)
		if q.Cmp(s.min) < 0 {
			// The first branch is run and cut as it is chosen; the others
			// are cut without a run (all at once for a uniform choice).
			if first && !s.runRun() {
				return
			}
			if n.kind != bernoulliNode {
				s.cuts += int64(len(probs) - i)
				s.below += int64(len(probs) - i)
				return
			}
			s.cuts++
			s.below++
			first = false
			continue
		}
		first = false
		s.visit(n.kids[i], k+1, q, stack)
		if s.stopped {
			return
		}
	}
}

// fuzzBudget decodes a small budget.
func fuzzBudget(b0, b1, b2 int) dptest.Budget {
	b := dptest.Budget{
		Runs:  []int64{1, 2, 3, 5, 10, 50, 300, 3000}[b0%8],
		Depth: 1 + b1%64,
	}
	switch k := b2 % 24; {
	case b2&0x80 != 0:
		b.MinProb = big.NewRat(1, int64(3*k+1))
	case k > 0:
		b.MinProb = big.NewRat(1, 1<<k)
	}
	return b
}

// FuzzExplore explores random samplers (random choice trees, rejection by
// restarts, sub-samplers called inline or reused) under random small
// budgets, and checks every Dist against brute force: every explored mass
// is at most the true probability, the masses and Unexplored sum to
// exactly 1, a finite tree explored without a budget gives its exact
// distribution, the inline explorations agree exactly with an independent
// model of the budget, and (Runs aside) a reused sub-sampler explores at
// least all that the inline one does.
//
//	go test ./dptest -run '^$' -fuzz FuzzExplore -fuzztime 5m
func FuzzExplore(f *testing.F) {
	// More seeds in testdata/fuzz/FuzzExplore.
	f.Add([]byte{6, 20, 3, 2, 0, 8})                           // Bit(0 1)
	f.Add([]byte{7, 63, 0, 2, 2, 1, 8, 16})                    // Bit(Bit(restart 1) 2)
	f.Add([]byte{5, 9, 0x83, 13, 2, 2, 1, 8, 16, 24, 2, 0, 1}) // a rejection sampler as a sub-sampler
	f.Fuzz(fuzzExplore)
}

// fuzzExplore is FuzzExplore's check of one input.
func fuzzExplore(t *testing.T, data []byte) {
	if len(data) < 3 {
		return
	}
	d := &decoder{data: data[3:]}
	root := d.tree(0, 0, true)
	b := fuzzBudget(int(data[0]), int(data[1]), int(data[2]))
	want := truth(root)
	ctx := context.Background()
	check := func(what string, d *dptest.Dist[int]) {
		t.Helper()
		sum := new(big.Rat).Set(d.Unexplored)
		for o, p := range d.P {
			if p.Sign() <= 0 || want[o] == nil || p.Cmp(want[o]) > 0 {
				t.Errorf("%s: Pr(%d) = %s > %v", what, o, p.RatString(), want[o])
			}
			sum.Add(sum, p)
		}
		if d.Unexplored.Sign() < 0 || sum.Cmp(big.NewRat(1, 1)) != 0 {
			t.Errorf("%s: unexplored %s, the masses sum to %s", what, d.Unexplored.RatString(), sum.RatString())
		}
	}
	t.Logf("tree %v, budget %+v", root, b)

	// The budget, inline: sound, and as the model says.
	inline, err := dptest.Explore(ctx, sampler(root, false), b)
	if err != nil {
		t.Fatal(err)
	}
	check("inline", inline)
	sim := simulate(root, b)
	if diff := cmp.Diff(sim.p, inline.P, ratCmp); diff != "" || sim.runs != inline.Runs || sim.cuts != inline.Cut {
		t.Errorf("inline: P (-model +got):\n%s\nruns %d (model %d), cut %d (model %d)", diff, inline.Runs, sim.runs, inline.Cut, sim.cuts)
	}

	// The budget, reused: sound.
	if d.reuse {
		reused, err := dptest.Explore(ctx, sampler(root, true), b)
		if err != nil {
			t.Fatal(err)
		}
		check("reused", reused)
	}

	// No budget on a finite tree: exact.
	if !d.loops {
		for _, reuse := range []bool{false, true} {
			all, err := dptest.Explore(ctx, sampler(root, reuse), dptest.Budget{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, all.P, ratCmp); diff != "" || all.Unexplored.Sign() != 0 || all.Cut != 0 {
				t.Errorf("reuse %t, no budget: P (-want +got):\n%s\nunexplored %s, %d cut", reuse, diff, all.Unexplored.RatString(), all.Cut)
			}
		}
	}

	// Depth and MinProb alone: reused explores at least all inline does.
	if d.reuse && b.MinProb != nil && b.MinProb.Cmp(big.NewRat(1, 1<<14)) >= 0 {
		b := dptest.Budget{Runs: 1 << 40, Depth: b.Depth, MinProb: b.MinProb}
		inline, err := dptest.Explore(ctx, sampler(root, false), b)
		if err != nil {
			t.Fatal(err)
		}
		reused, err := dptest.Explore(ctx, sampler(root, true), b)
		if err != nil {
			t.Fatal(err)
		}
		check("inline, no Runs", inline)
		check("reused, no Runs", reused)
		for o, p := range inline.P {
			if q := reused.P[o]; q == nil || q.Cmp(p) < 0 {
				t.Errorf("no Runs: Pr(%d): reused %v < inline %s", o, q, p.RatString())
			}
		}
	}
}
