package chain_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gonum.org/v1/gonum/graph/topo"

	"github.com/dpcheck/dpcheck/chain"
)

// sorted makes components comparable: each sorted, then the list.
func sorted(sccs [][]int) [][]int {
	out := make([][]int, len(sccs))
	for i, c := range sccs {
		out[i] = slices.Sorted(slices.Values(c))
	}
	slices.SortFunc(out, func(a, b []int) int { return a[0] - b[0] })
	return out
}

// Components agrees with gonum's recursive Tarjan on random graphs, and
// its order is reverse topological.
func TestComponentsAgainstGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		n := 1 + r.IntN(40)
		a := make(chain.Adjacency, n)
		for v := range a {
			for range r.IntN(4) {
				a[v] = append(a[v], r.IntN(n))
			}
		}
		got := a.Components()
		var want [][]int
		for _, scc := range topo.TarjanSCC(a.Graph()) {
			var ids []int
			for _, x := range scc {
				ids = append(ids, int(x.ID()))
			}
			want = append(want, ids)
		}
		if diff := cmp.Diff(sorted(want), sorted(got)); diff != "" {
			t.Fatalf("trial %d: components differ (-gonum +ours):\n%s", trial, diff)
		}
		pos := map[int]int{}
		for i, scc := range got {
			for _, v := range scc {
				pos[v] = i
			}
		}
		for v, out := range a {
			for _, w := range out {
				if pos[w] > pos[v] {
					t.Fatalf("trial %d: %d → %d, but %d's component comes after %d's", trial, v, w, w, v)
				}
			}
		}
	}
}

// A line of a million nodes needs no recursion.
func TestComponentsDeep(t *testing.T) {
	const n = 1_000_000
	a := make(chain.Adjacency, n)
	for v := range n - 1 {
		a[v] = []int{v + 1}
	}
	if got := a.Components(); len(got) != n || got[0][0] != n-1 || got[n-1][0] != 0 {
		t.Fatalf("%d components, first %v, last %v", len(got), got[0], got[len(got)-1])
	}
}

// TestReachBack: on 0 → 1 → 2 → 3 and 4 → 2, the nodes reaching 3 through
// nodes of {1, 2, 4}: 1, 2 and 4 (through), 3 itself, not 0 (outside
// through).
func TestReachBack(t *testing.T) {
	adj := chain.Adjacency{{1}, {2}, {3}, nil, {2}}
	got := adj.ReachBack([]bool{false, false, false, true, false}, []bool{false, true, true, false, true})
	if want := []bool{false, true, true, true, true}; !slices.Equal(got, want) {
		t.Errorf("ReachBack = %v, want %v", got, want)
	}
}
