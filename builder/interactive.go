package builder

import (
	"context"
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/mdp"
	"github.com/dpcheck/dpcheck/model"
)

// MaxSurveyQuestions bounds the questions of InteractiveSurvey: the MDP has
// 3·2^q − 2 states.
const MaxSurveyQuestions = 16

// The actions of InteractiveSurvey.
const (
	SurveyLow  = "L" // the survey: yes with probability 3/4 from +, 1/4 from −
	SurveyHigh = "H" // high accuracy: yes with probability 4/5 from +, 1/5 from −
)

// InteractiveSurvey returns the paper's interactive survey (Liu, Wang and
// Zhang, APLAS 2018, the MDP section) as an MDP: the surveyee's diagnosis
// x is + or −, and the analyst asks q questions, choosing for each the
// action L (the survey: yes with probability 3/4 from +, 1/4 from −) or H
// (high accuracy: 4/5 and 1/5). After q answers the run is absorbed.
//
// States: the inputs "pos" (x=1, label in_pos) and "neg" (x=0, label
// in_neg), neighbours of each other; after i < q answers w (a word over
// Y and N), "pos_<w>" and "neg_<w>" (x and a1..ai); after q answers, the
// absorbing "<w>" (a1..aq, label done), shared by both inputs so that the
// final state is the output. A state after an answer carries out_Y or
// out_N (its last answer) and yes_j or no_j for every answer j so far;
// a_j is 1 for yes and 0 for no.
//
// With one question the tight ε over final outputs is ln 4 (the analyst
// asks H); with two, ln 16 (HH); the tight δ at ε = 0 is 3/5 for both.
func InteractiveSurvey(questions int) (*model.Mechanism, error) {
	return interactiveSurvey(context.Background(), questions)
}

func interactiveSurvey(ctx context.Context, q int) (*model.Mechanism, error) {
	const name = "interactive_survey"
	if err := checkRange(name, "questions", q, 1, MaxSurveyQuestions); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// yes[a][x] is Pr[yes | action a, x]; no is its complement.
	yes := [2][2]*big.Rat{{rat(1, 4), rat(3, 4)}, {rat(1, 5), rat(4, 5)}}
	no := [2][2]*big.Rat{{yes[0][1], yes[0][0]}, {yes[1][1], yes[1][0]}}
	f := newMDPFrame()
	add := f.add
	// answered returns the valuation and labels of a state after the
	// answers w.
	answered := func(w string, done bool) (chain.Valuation, []string) {
		var val chain.Valuation
		labels := []string{"out_" + w[len(w)-1:]}
		for j := range len(w) {
			v := int64(0)
			l := fmt.Sprintf("no_%d", j+1)
			if w[j] == 'Y' {
				v, l = 1, fmt.Sprintf("yes_%d", j+1)
			}
			val = append(val, chain.Var{Name: fmt.Sprintf("a%d", j+1), Value: v})
			labels = append(labels, l)
		}
		if done {
			labels = append(labels, "done")
		}
		return val, labels
	}
	// The final states, one per word of q answers, in the order of the
	// words (Y before N).
	final := map[string]int{}
	for _, w := range words(q) {
		val, labels := answered(w, true)
		final[w] = add(w, val, labels...)
	}
	var inputs [2]int
	for _, x := range []int{1, 0} {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		xs := map[int]string{1: "pos", 0: "neg"}[x]
		xv := chain.Var{Name: "x", Value: int64(x)}
		inputs[x] = add(xs, chain.Valuation{xv}, "in_"+xs)
		f.b.MarkInput(inputs[x])
		// level holds the states after i answers, by word.
		level := map[string]int{"": inputs[x]}
		for i := 0; i < q; i++ {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			next := map[string]int{}
			for _, w := range words(i) {
				from := level[w]
				var to [2]int
				for j, a := range []string{"Y", "N"} {
					v := w + a
					if i+1 == q {
						to[j] = final[v]
						continue
					}
					val, labels := answered(v, false)
					to[j] = add(xs+"_"+v, append(chain.Valuation{xv}, val...), labels...)
					next[v] = to[j]
				}
				for act := range 2 {
					f.choices[from] = append(f.choices[from], mdp.Choice{
						Action: act,
						To:     []int{to[0], to[1]},
						P:      []*big.Rat{yes[act][x], no[act][x]},
					})
				}
			}
			level = next
		}
	}
	note := fmt.Sprintf("interactive survey: %s, each low accuracy (L: yes 3/4 vs 1/4) or high (H: 4/5 vs 1/5) as the analyst chooses", plural(q, "question"))
	return f.mechanism(ctx, []string{SurveyLow, SurveyHigh}, [][2]int{{inputs[1], inputs[0]}}, note)
}

// words returns every word of length n over Y and N, Y first.
func words(n int) []string {
	ws := []string{""}
	for range n {
		next := make([]string, 0, 2*len(ws))
		for _, w := range ws {
			next = append(next, w+"Y", w+"N")
		}
		ws = next
	}
	return ws
}

// plural returns "1 question", "2 questions".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
