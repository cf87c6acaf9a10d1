package spec

import (
	"cmp"
	"maps"
	"math/big"
	"slices"
	"strconv"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/mdp"
	"github.com/dpcheck/dpcheck/source"
)

// An MDP's explicit files, as PRISM exports them: the .tra file's first
// line is "N C M" (states, choices, transitions), then "i k j p" and an
// optional action for each transition: from state i, its choice k (0, 1,
// … at each state) goes to j with probability p. The .lab and .sta files
// are a DTMC's. Each choice's probabilities must sum to exactly 1, and its
// lines must name one action (or none). The frame is the chain of the
// states, every one absorbing; the MDP's choices are named by their
// actions, a choice without one "c<k>", and when two choices of a state
// would have the same name each gets "#k".

// mdpTransition is a line of an MDP's .tra file; action indexes the
// distinct action texts (0: none).
type mdpTransition struct {
	from, choice, to, p, off, action int32
}

// mdpTra is what an MDP's .tra file gives.
type mdpTra struct {
	list    []mdpTransition
	probs   []explicitProb
	actions []string // "" first
	choices int
}

// isMDPHeader reports whether the first line of a .tra file has three
// fields (an MDP's).
func isMDPHeader(f *source.File) bool {
	three := false
	lines(f.Text, func(l line) bool {
		three = len(l.fields(nil)) == 3
		return false
	})
	return three
}

// readMDP reads an MDP's files into its frame and the MDP, or returns nil
// with the errors in r.errs.
func (r *explicitReader) readMDP(tra, lab, sta *source.File) (*chain.Chain, *mdp.MDP) {
	r.size = newSize(true, lab, sta)
	n, d := r.mdpTransitions(tra)
	if r.stop || n == 0 {
		return nil, nil
	}
	frame := r.build(tra, lab, sta, n, len(d.list), nil)
	if frame == nil {
		return nil, nil
	}
	// Name the choices, state by state.
	type named struct {
		name       string
		lo, hi, st int // its lines, and its state
	}
	var all []named
	for lo := 0; lo < len(d.list); {
		st := d.list[lo].from
		var cs []named
		for lo < len(d.list) && d.list[lo].from == st {
			hi := lo + 1
			for hi < len(d.list) && d.list[hi].from == st && d.list[hi].choice == d.list[lo].choice {
				hi++
			}
			name := d.actions[d.list[lo].action]
			if name == "" {
				name = "c" + strconv.Itoa(int(d.list[lo].choice))
			}
			cs = append(cs, named{name, lo, hi, int(st)})
			lo = hi
		}
		count := map[string]int{}
		for _, c := range cs {
			count[c.name]++
		}
		for i := range cs {
			if count[cs[i].name] > 1 {
				cs[i].name += "#" + strconv.Itoa(int(d.list[cs[i].lo].choice))
			}
		}
		all = append(all, cs...)
	}
	set := map[string]int{}
	for _, c := range all {
		set[c.name] = 0
	}
	actions := slices.Sorted(maps.Keys(set))
	for i, a := range actions {
		set[a] = i
	}
	choices := make([][]mdp.Choice, n)
	for _, c := range all {
		ch := mdp.Choice{Action: set[c.name], To: make([]int, 0, c.hi-c.lo), P: make([]*big.Rat, 0, c.hi-c.lo)}
		for _, t := range d.list[c.lo:c.hi] {
			ch.To = append(ch.To, int(t.to))
			ch.P = append(ch.P, d.probs[t.p].val)
		}
		choices[c.st] = append(choices[c.st], ch)
	}
	m, err := mdp.New(frame, actions, choices)
	if err != nil {
		r.errorf(tra, 0, "%v", err)
		return nil, nil
	}
	return frame, m
}

// mdpHeader checks the counts of an MDP's .tra file, "N C M": numbers,
// C and M possible for N states (every choice has a transition, and at
// most one to each state), all within the limits and the memory the
// model would take; it reports what is wrong and returns false.
func (r *explicitReader) mdpHeader(f *source.File, fn, fc, fm line) (n, c, m int, ok bool) {
	n, okN := r.count(f, fn, "states")
	c, okC := r.count(f, fc, "choices")
	m, okM := r.count(f, fm, "transitions")
	switch {
	case !okN || !okC || !okM:
		return 0, 0, 0, false
	case n == 0:
		r.errorf(f, fn.off, "the model has no states")
		return 0, 0, 0, false
	case c > m:
		r.errorf(f, fm.off, "%s need at least %s transitions (one each): the first line says %s",
			plural(c, "choice"), exact.Thousands(int64(c)), exact.Thousands(int64(m)))
		return 0, 0, 0, false
	case int64(m) > int64(c)*int64(n):
		r.errorf(f, fm.off, "%s can have at most %s transitions (one from each choice to each of the %s): the first line says %s",
			plural(c, "choice"), exact.Thousands(int64(c)*int64(n)), plural(n, "state"), exact.Thousands(int64(m)))
		return 0, 0, 0, false
	}
	return n, c, m, r.withinLimits(f, fn.off, n, m, min(m, len(f.Text)/8), min(c, len(f.Text)/8))
}

// mdpTransitions reads an MDP's .tra file: the number of states and the
// transitions, checked (0 states after an error in the first line).
func (r *explicitReader) mdpTransitions(f *source.File) (int, mdpTra) {
	d := mdpTra{actions: []string{""}}
	var n int
	seenProb := map[string]int32{}
	actionIndex := map[string]int32{"": 0}
	fits, ok := r.traLines(f, func(_ line, fs []line) (m int, ok bool) {
		var c int
		if n, c, m, ok = r.mdpHeader(f, fs[0], fs[1], fs[2]); ok {
			d.list = make([]mdpTransition, 0, min(m, len(f.Text)/8)) // a line is at least "0 0 0 1\n"
			d.choices = c
		}
		return m, ok
	}, func(l line, fs []line, keep bool) bool {
		if len(fs) < 4 || len(fs) > 5 {
			r.errorf(f, l.off, "a transition of an MDP is SOURCE CHOICE TARGET PROBABILITY (and an action): found %d fields", len(fs))
			return true
		}
		from, ok := r.state(f, fs[0], n)
		choice, okc := index(fs[1].text, 1<<31-1)
		if !okc {
			r.errorf(f, fs[1].off, "%s is not a choice: a state's choices are numbered 0, 1, …", source.Quote(fs[1].text))
		}
		to, ok2 := r.state(f, fs[2], n)
		p, okp := r.traProb(f, fs[3], &d.probs, seenProb, true)
		if !okp {
			return !r.stop
		}
		var act int32
		if len(fs) == 5 && !isName(fs[4].text) {
			r.errorf(f, fs[4].off, "%s is not an action: PRISM's actions are identifiers", source.Quote(fs[4].text))
			return true
		}
		if len(fs) == 5 {
			act, _ = intern(&d.actions, actionIndex, fs[4].text, fs[4].text)
		}
		if ok && okc && ok2 && keep {
			d.list = append(d.list, mdpTransition{int32(from), int32(choice), int32(to), p, int32(l.off), act})
		}
		return true
	})
	if !ok {
		return 0, d
	}
	if fits && len(r.errs) == 0 {
		r.mdpChoices(f, &d)
	}
	return n, d
}

// actionName quotes an action of an MDP's .tra file for a message.
func actionName(a string) string {
	if a == "" {
		return "none"
	}
	return source.Quote(a)
}

// mdpChoices sorts the transitions by source, choice and target, and
// checks the choices: numbered 0, 1, … at each state, one action each,
// no target twice, probabilities summing to exactly 1, as many as the
// first line says.
func (r *explicitReader) mdpChoices(f *source.File, d *mdpTra) {
	slices.SortFunc(d.list, func(a, b mdpTransition) int {
		return cmp.Or(cmp.Compare(a.from, b.from), cmp.Compare(a.choice, b.choice), cmp.Compare(a.to, b.to), cmp.Compare(a.off, b.off))
	})
	var acc chain.Accumulator
	one := big.NewRat(1, 1)
	line := func(t mdpTransition) int { return f.Position(int(t.off)).Line }
	choices := 0
	for lo := 0; lo < len(d.list); {
		hi := lo + 1
		for hi < len(d.list) && d.list[hi].from == d.list[lo].from && d.list[hi].choice == d.list[lo].choice {
			hi++
		}
		first := slices.MinFunc(d.list[lo:hi], func(a, b mdpTransition) int { return cmp.Compare(a.off, b.off) })
		want := int32(0)
		if lo > 0 && d.list[lo-1].from == first.from {
			want = d.list[lo-1].choice + 1
		}
		if first.choice != want {
			r.errorf(f, int(first.off), "state %d has choice %d but no choice %d: a state's choices are numbered 0, 1, …", first.from, first.choice, want)
		}
		choices++
		acc.Reset()
		dup := false
		for k := lo; k < hi; k++ {
			t := d.list[k]
			if k > lo && t.to == d.list[k-1].to {
				r.errorf(f, int(t.off), "the transition of choice %d of state %d to %d is listed twice (also at line %d)", t.choice, t.from, t.to, line(d.list[k-1]))
				dup = true
			}
			if t.action != first.action {
				r.errorf(f, int(t.off), "choice %d of state %d has two actions, %s and %s (line %d)", t.choice, t.from, actionName(d.actions[t.action]), actionName(d.actions[first.action]), line(first))
				dup = true
			}
			acc.Add(d.probs[t.p].val)
		}
		if c := acc.Cmp(one); c != 0 && !dup {
			sum := acc.Rat(nil)
			r.errorf(f, int(first.off), "the probabilities of choice %d of state %d sum to %s, not 1 (PRISM writes rounded decimals unless it exports with -exact)", first.choice, first.from, sum.RatString())
		}
		lo = hi
	}
	if choices != d.choices {
		r.errorf(f, 0, "the first line says the file has %s choices; it has %s", exact.Thousands(int64(d.choices)), exact.Thousands(int64(choices)))
	}
}
