package verify

import (
	"container/heap"
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
)

// MaxPathStates bounds the chains on which a most likely path is searched.
const MaxPathStates = 200_000

// mostLikelyPath returns the most probable path from s into one of the
// target states, with its exact probability, or nil when none is reachable
// (or the chain is too big to search). Probabilities only shrink along a
// path, so Dijkstra's algorithm on exact products finds the best one.
func mostLikelyPath(c *chain.Chain, s int, target map[int]bool) ([]int, *big.Rat) {
	if c.NumStates() > MaxPathStates || len(target) == 0 {
		return nil, nil
	}
	best := map[int]*big.Rat{s: ratOne}
	prev := map[int]int{s: -1}
	done := map[int]bool{}
	pq := &pathQueue{{s, ratOne}}
	for pq.Len() > 0 {
		it := heap.Pop(pq).(pathItem)
		if done[it.s] {
			continue
		}
		done[it.s] = true
		if target[it.s] {
			var path []int
			for v := it.s; v >= 0; v = prev[v] {
				path = append([]int{v}, path...)
			}
			return path, it.p
		}
		to, p := c.Row(it.s)
		for i, t := range to {
			if done[t] {
				continue
			}
			np := exact.Mul(it.p, p[i])
			if old, ok := best[t]; !ok || np.Cmp(old) > 0 {
				best[t], prev[t] = np, it.s
				heap.Push(pq, pathItem{t, np})
			}
		}
	}
	return nil, nil
}

type pathItem struct {
	s int
	p *big.Rat
}

type pathQueue []pathItem

func (q pathQueue) Len() int           { return len(q) }
func (q pathQueue) Less(i, j int) bool { return q[i].p.Cmp(q[j].p) > 0 }
func (q pathQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *pathQueue) Push(x any)        { *q = append(*q, x.(pathItem)) }
func (q *pathQueue) Pop() any          { old := *q; x := old[len(old)-1]; *q = old[:len(old)-1]; return x }

// eventStates returns the absorbing states whose output is in the event
// (final-state outputs only; nil for traces).
func (a *Analysis) eventStates(event []string) map[int]bool {
	if a.output.kind == outTraces {
		return nil
	}
	in := map[string]bool{}
	for _, o := range event {
		in[o] = true
	}
	out := map[int]bool{}
	for s, o := range a.stateOutput {
		if in[a.outputs[o]] {
			out[s] = true
		}
	}
	return out
}
