package lump_test

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/lump"
	"github.com/google/go-cmp/cmp"
)

// randomChain makes a chain with many bisimilar states: a random base
// chain whose states are copied one to three times, each transition into a
// base state split among its copies. A copy sometimes gets a label of its
// own, and the sink sometimes takes a part of a row.
func randomChain(rng *rand.Rand) *chain.Chain {
	k := 2 + rng.IntN(5)
	type base struct {
		absorbing bool
		labels    []string
		to        []int
		p         []*big.Rat
	}
	bases := make([]base, k)
	for i := range bases {
		b := &bases[i]
		for _, l := range []string{"A", "B"} {
			if rng.IntN(3) == 0 {
				b.labels = append(b.labels, l)
			}
		}
		if rng.IntN(4) == 0 {
			b.absorbing = true
			continue
		}
		left := big.NewRat(1, 1)
		for n := 1 + rng.IntN(3); n > 0; n-- {
			p := new(big.Rat).Mul(left, big.NewRat(1, int64(1+rng.IntN(3))))
			if n == 1 {
				p = new(big.Rat).Set(left)
			}
			left.Sub(left, p)
			b.to = append(b.to, rng.IntN(k))
			b.p = append(b.p, p)
			if left.Sign() == 0 {
				break
			}
		}
	}
	copies := make([][]int, k)
	bld := chain.NewBuilder()
	n := 0
	for i := range bases {
		for range 1 + rng.IntN(3) {
			labels := slices.Clone(bases[i].labels)
			if rng.IntN(8) == 0 {
				labels = append(labels, "C")
			}
			id := bld.AddState(fmt.Sprintf("s%d", n), chain.Valuation{{Name: "b", Value: int64(i)}}, labels...)
			copies[i] = append(copies[i], id)
			n++
		}
	}
	for i, b := range bases {
		for _, s := range copies[i] {
			for j, t := range b.to {
				p := b.p[j]
				if rng.IntN(6) == 0 {
					bld.SendRemainderToSink(s) // this part goes to the sink
					continue
				}
				cs := copies[t]
				if len(cs) > 1 && rng.IntN(2) == 0 {
					half := new(big.Rat).Mul(p, big.NewRat(1, 2))
					bld.AddTransition(s, cs[rng.IntN(len(cs))], half)
					bld.AddTransition(s, cs[rng.IntN(len(cs))], half)
				} else {
					bld.AddTransition(s, cs[rng.IntN(len(cs))], p)
				}
			}
		}
	}
	for range 1 + rng.IntN(3) {
		bld.MarkInput(rng.IntN(n))
	}
	c, err := bld.Build()
	if err != nil {
		panic(err)
	}
	return c
}

// naive is the textbook fixpoint: split every class by each state's exact
// probability of moving into every class, until nothing changes. The
// initial classes are computed independently of package lump.
func naive(c *chain.Chain, r lump.Respect) []int {
	n := c.NumStates()
	// States that can reach an absorbing state.
	reach := make([]bool, n)
	for changed := true; changed; {
		changed = false
		for s := range n {
			if reach[s] {
				continue
			}
			to, _ := c.Row(s)
			if c.IsAbsorbing(s) || slices.ContainsFunc(to, func(t int) bool { return reach[t] }) {
				reach[s], changed = true, true
			}
		}
	}
	keys := make([]string, n)
	for s := range n {
		switch {
		case c.IsInput(s) || r.Final && !reach[s]:
			keys[s] = fmt.Sprintf("alone %d", s)
		case r.Final && c.IsAbsorbing(s):
			keys[s] = "absorbing " + r.Key(s)
		case r.Final:
			keys[s] = "transient"
		case r.Key != nil:
			keys[s] = "key " + r.Key(s)
		}
	}
	class := canonical(keys)
	for {
		sig := make([]string, n)
		for s := range n {
			into := map[int]*big.Rat{}
			to, p := c.Row(s)
			for i, t := range to {
				if into[class[t]] == nil {
					into[class[t]] = new(big.Rat)
				}
				into[class[t]].Add(into[class[t]], p[i])
			}
			parts := []string{fmt.Sprint(class[s])}
			for b, x := range into {
				parts = append(parts, fmt.Sprintf("%d:%s", b, x.RatString()))
			}
			slices.Sort(parts[1:])
			sig[s] = strings.Join(parts, " ")
		}
		next := canonical(sig)
		if slices.Equal(next, class) {
			return class
		}
		class = next
	}
}

// canonical numbers equal keys by their first state.
func canonical(keys []string) []int {
	ids := map[string]int{}
	out := make([]int, len(keys))
	for s, k := range keys {
		id, ok := ids[k]
		if !ok {
			id = len(ids)
			ids[k] = id
		}
		out[s] = id
	}
	return out
}

// TestRandomPartitions: on random chains, the partition is the textbook
// fixpoint's, and the quotient's rows are every member's probabilities of
// moving into each block.
func TestRandomPartitions(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	merged := 0
	for i := range 2000 {
		c := randomChain(rng)
		r := lump.Respect{Final: rng.IntN(2) == 0, Key: labelKey(c)}
		if rng.IntN(4) == 0 {
			r.Key = func(s int) string { v, _ := c.Value(s, "b"); return fmt.Sprint(v % 2) }
		}
		l, err := lump.Lump(context.Background(), c, r)
		if err != nil {
			t.Fatalf("chain %d: %v", i, err)
		}
		if diff := cmp.Diff(naive(c, r), l.Block); diff != "" {
			t.Fatalf("chain %d (final %v): partition differs from the fixpoint's (-want +got):\n%s", i, r.Final, diff)
		}
		q := l.Quotient
		for s := range c.NumStates() {
			into := map[int]*big.Rat{}
			to, p := c.Row(s)
			for j, x := range to {
				b := l.Block[x]
				if into[b] == nil {
					into[b] = new(big.Rat)
				}
				into[b].Add(into[b], p[j])
			}
			qto, qp := q.Row(l.Block[s])
			want := map[int]*big.Rat{}
			for j, b := range qto {
				want[b] = qp[j]
			}
			if diff := cmp.Diff(want, into, ratCmp); diff != "" {
				t.Fatalf("chain %d: state %s moves into the blocks unlike its block's row (-quotient +state):\n%s", i, c.Name(s), diff)
			}
			if c.IsInput(s) != q.IsInput(l.Block[s]) || c.IsInput(s) && len(l.Members(l.Block[s])) != 1 {
				t.Fatalf("chain %d: input %s is not alone in an input block", i, c.Name(s))
			}
			if r.Final && c.IsAbsorbing(s) != q.IsAbsorbing(l.Block[s]) {
				t.Fatalf("chain %d: %s is absorbing: %v, its block: %v", i, c.Name(s), c.IsAbsorbing(s), q.IsAbsorbing(l.Block[s]))
			}
		}
		if q.NumStates() < c.NumStates() {
			merged++
		}
	}
	if merged < 1000 {
		t.Errorf("only %d of 2000 random chains lumped to fewer states: the generator makes too few bisimilar states", merged)
	}
}
