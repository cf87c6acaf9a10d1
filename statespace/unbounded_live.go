package statespace

// Liveness of unbounded integers. A variable that no command can read
// again before it is drawn or set anew is summed out of a run's weight as
// soon as the run reaches such a state: the outputs do not change (its
// values are summed at the end anyway), and independent draws compared one
// by one no longer multiply the weight's pieces. Which commands can follow
// which is found on the bounded parts of the states alone, every
// comparison of unbounded variables taken both ways, so the liveness is an
// over-approximation: a variable is summed out only where no run can read
// it.

// maxLiveStates bounds the bounded states liveness explores; beyond it
// every variable stays live.
const maxLiveStates = 100_000

// liveness maps the key of a bounded valuation to the unbounded variables
// that may be read from it on, or is nil when it could not be found.
type liveness map[string][]bool

// liveness explores the bounded parts of the states from the inputs.
func (r *urun[T]) liveness() liveness {
	x, u := r.x, r.u
	n := len(u.vars)
	type edge struct {
		to           string
		reads, kills []bool
	}
	type node struct {
		edges []edge
		all   bool // unknown successors: every variable live
	}
	nodes := map[string]*node{}
	var queue [][]int64
	push := func(v []int64) string {
		k := key(v)
		if _, ok := nodes[k]; !ok {
			nodes[k] = &node{}
			queue = append(queue, v)
		}
		return k
	}
	for in := 0; in < x.inputs; in++ {
		v := append([]int64(nil), x.state(in)...)
		for _, vi := range u.vars {
			v[vi] = 0
		}
		push(v)
	}
	for len(queue) > 0 {
		if len(nodes) > maxLiveStates || x.ctx.Err() != nil {
			return nil
		}
		v := queue[0]
		queue = queue[1:]
		nd := nodes[key(v)]
		for ci := range x.p.m.Commands {
			cubes, err := r.cubes(ci, u.guards[ci], v, true)
			if err != nil {
				nd.all = true
				continue
			}
			if len(cubes) == 0 {
				continue
			}
			reads := make([]bool, n)
			u.guards[ci].reads(reads)
			for ui := range x.p.updates[ci] {
				e := edge{reads: append([]bool(nil), reads...), kills: make([]bool, n)}
				for _, a := range u.assigns[ci][ui] {
					e.kills[a.u] = true
					for _, t := range a.lin.terms {
						e.reads[t.u] = true
					}
				}
				bs, err := r.ex.update(ci, ui, v, r.alg.one())
				if err != nil {
					nd.all = true
					continue
				}
				for _, b := range bs {
					e.to = push(b.v)
					nd.edges = append(nd.edges, e)
				}
			}
		}
	}
	// live(s) = observed ∪ ⋃ over edges (reads ∪ (live(t) − kills)),
	// iterated to its least fixed point.
	live := liveness{}
	for k, nd := range nodes {
		l := make([]bool, n)
		for j := range l {
			l[j] = nd.all || j == u.observed
		}
		live[k] = l
	}
	for changed := true; changed; {
		changed = false
		for k, nd := range nodes {
			l := live[k]
			for _, e := range nd.edges {
				t := live[e.to]
				for j := range l {
					if !l[j] && (e.reads[j] || t[j] && !e.kills[j]) {
						l[j], changed = true, true
					}
				}
			}
		}
	}
	return live
}

// reads marks the unbounded variables the guard compares.
func (c *ucond) reads(out []bool) {
	for _, t := range c.lin.terms {
		out[t.u] = true
	}
	for _, k := range c.kids {
		k.reads(out)
	}
}

// forget sums out of c's weight the variables no command can read from its
// bounded state on.
func (r *urun[T]) forget(live liveness, c *ucfg[T]) error {
	l, ok := live[key(c.v)]
	if !ok {
		return nil
	}
	var dead []int
	for j, isLive := range l {
		if !isLive {
			dead = append(dead, j)
		}
	}
	w, err := r.s.SumOutAll(c.w, dead)
	if err != nil {
		return r.failed(err)
	}
	c.w = w
	return nil
}
