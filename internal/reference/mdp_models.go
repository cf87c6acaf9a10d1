package reference

import (
	"fmt"
	"math/big"
)

// mdpBuilder assembles an MDP by state names.
type mdpBuilder struct {
	m     *MDP
	index map[string]int
}

func newMDPBuilder(actions []string) *mdpBuilder {
	return &mdpBuilder{m: &MDP{Actions: actions}, index: map[string]int{}}
}

// state returns the state named name, added with labels when new.
func (b *mdpBuilder) state(name string, labels ...string) int {
	if s, ok := b.index[name]; ok {
		return s
	}
	s := len(b.m.Names)
	b.index[name] = s
	b.m.Names = append(b.m.Names, name)
	b.m.Labels = append(b.m.Labels, labels)
	b.m.Moves = append(b.m.Moves, nil)
	return s
}

// moveOf builds a move from (target, probability) pairs, zeros dropped.
func moveOf(to []int, p []*big.Rat) *Move {
	mv := &Move{}
	for i := range to {
		if p[i].Sign() > 0 {
			mv.To = append(mv.To, to[i])
			mv.P = append(mv.P, p[i])
		}
	}
	return mv
}

// InteractiveSurveyMDP is the paper's interactive survey with q questions:
// from "pos" (diagnosis +) or "neg", each question answers yes with
// probability 3/4 from + and 1/4 from − under action L, 4/5 and 1/5 under
// H. A state after answers w (a word over Y, N) carries out_Y or out_N for
// its last answer; after q answers the run is absorbed. The pair is
// (pos, neg).
func InteractiveSurveyMDP(q int) (*MDP, [][2]int) {
	b := newMDPBuilder([]string{"L", "H"})
	yes := map[string][2]*big.Rat{"pos": {rat(3, 4), rat(4, 5)}, "neg": {rat(1, 4), rat(1, 5)}}
	var walk func(x, w string) int
	walk = func(x, w string) int {
		name := x + "_" + w
		var labels []string
		if w != "" {
			labels = []string{"out_" + w[len(w)-1:]}
		}
		if len(w) == q {
			name = w // both inputs end in the same states
		}
		s := b.state(name, labels...)
		if len(w) == q || b.m.Moves[s] != nil {
			return s
		}
		y, n := walk(x, w+"Y"), walk(x, w+"N")
		for a := range 2 {
			p := yes[x][a]
			b.m.Moves[s] = append(b.m.Moves[s], moveOf([]int{y, n}, []*big.Rat{p, new(big.Rat).Sub(rat(1, 1), p)}))
		}
		return s
	}
	pos, neg := walk("pos", ""), walk("neg", "")
	return b.m, [][2]int{{pos, neg}}
}

// ThresholdMDP is the paper's above threshold MDP over {0..n} with
// threshold noise αT and answer noise αQ (truncated geometric, from this
// package's noise.go), halting when the noisy answer is ≥ (strict: >) the
// noisy threshold. Inputs "(i,t,r)" (role i, threshold t, first answer r)
// draw T and the first noisy answer under any action, then move to "top"
// (label top, absorbing) or "(i,T,bot)" (label bot); there action "m n"
// (|m − n| ≤ 1) answers around m in role 0 and n in role 1. Pairs:
// (0,t,m) ~ (1,t,n) for |m − n| ≤ 1.
func ThresholdMDP(alphaT, alphaQ *big.Rat, n int, strict bool) (*MDP, [][2]int) {
	var acts [][2]int
	var names []string
	for m := 0; m <= n; m++ {
		for nb := 0; nb <= n; nb++ {
			if abs(m-nb) <= 1 {
				acts = append(acts, [2]int{m, nb})
				names = append(names, fmt.Sprintf("m%dn%d", m, nb))
			}
		}
	}
	b := newMDPBuilder(names)
	// above is Pr[noisy answer around c halts at threshold T].
	above := func(c, T int) *big.Rat {
		q := TruncatedGeometric(alphaQ, n, c)
		sum := new(big.Rat)
		for v := 0; v <= n; v++ {
			if v > T || (v == T && !strict) {
				sum.Add(sum, q.At(v))
			}
		}
		return sum
	}
	top := b.state("top", "top")
	var bot [2][]int
	for i := range 2 {
		for T := 0; T <= n; T++ {
			bot[i] = append(bot[i], b.state(fmt.Sprintf("(%d,%d,bot)", i, T), "bot"))
		}
	}
	for i := range 2 {
		for T := 0; T <= n; T++ {
			s := bot[i][T]
			for _, a := range acts {
				up := above(a[i], T)
				b.m.Moves[s] = append(b.m.Moves[s], moveOf([]int{top, s}, []*big.Rat{up, new(big.Rat).Sub(rat(1, 1), up)}))
			}
		}
	}
	in := func(i, t, r int) int { return b.state(fmt.Sprintf("(%d,%d,%d)", i, t, r), "in") }
	for i := range 2 {
		for t := 0; t <= n; t++ {
			thr := TruncatedGeometric(alphaT, n, t)
			for r := 0; r <= n; r++ {
				s := in(i, t, r)
				pTop := new(big.Rat)
				to, p := []int{top}, []*big.Rat{pTop}
				for T := 0; T <= n; T++ {
					up := above(r, T)
					pTop.Add(pTop, new(big.Rat).Mul(thr.At(T), up))
					to = append(to, bot[i][T])
					p = append(p, new(big.Rat).Mul(thr.At(T), new(big.Rat).Sub(rat(1, 1), up)))
				}
				b.m.Moves[s] = []*Move{moveOf(to, p)}
			}
		}
	}
	var pairs [][2]int
	for t := 0; t <= n; t++ {
		for _, a := range acts {
			pairs = append(pairs, [2]int{in(0, t, a[0]), in(1, t, a[1])})
		}
	}
	return b.m, pairs
}
