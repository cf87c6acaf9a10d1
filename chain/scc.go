package chain

// Strongly connected components without recursion: a chain of a million
// states in a line is a million levels of Tarjan's recursion, which a
// goroutine's growing stack holds but a browser's fixed stack (the
// playground's WebAssembly) does not.

// Components returns the strongly connected components of the graph in
// reverse topological order — a component comes before every component
// that can reach it — each in the order Tarjan's algorithm finds its
// nodes. It is Tarjan's algorithm with an explicit stack.
func (a Adjacency) Components() [][]int {
	return components(len(a), func(v int) []int { return a[v] })
}

// Components returns the strongly connected components of the chain's
// transition graph, as Adjacency.Components does.
func (c *Chain) Components() [][]int {
	return components(c.NumStates(), func(v int) []int { return c.to[v] })
}

func components(n int, succ func(int) []int) [][]int {
	const unvisited = -1
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = unvisited
	}
	var (
		sccs  [][]int
		stack []int // Tarjan's stack of visited nodes
		next  int   // the next index
	)
	type frame struct{ v, i int } // a node and the next successor to look at
	var call []frame
	for root := range n {
		if index[root] != unvisited {
			continue
		}
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		call = append(call[:0], frame{root, 0})
		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			if out := succ(v); f.i < len(out) {
				w := out[f.i]
				f.i++
				switch {
				case index[w] == unvisited:
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{w, 0})
				case onStack[w]:
					low[v] = min(low[v], index[w])
				}
				continue
			}
			// Every successor of v is done: v closes its component if it
			// is the component's root, and passes its low link up.
			call = call[:len(call)-1]
			if len(call) > 0 {
				u := call[len(call)-1].v
				low[u] = min(low[u], low[v])
			}
			if low[v] == index[v] {
				var scc []int
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					scc = append(scc, w)
					if w == v {
						break
					}
				}
				sccs = append(sccs, scc)
			}
		}
	}
	return sccs
}
