package builder

import (
	"context"
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/mdp"
	"github.com/dpcheck/dpcheck/model"
)

// MaxThresholdMDPRange bounds n in AboveThresholdMDP: the MDP has 3n+1
// actions and 2(n+1)² inputs, each with a choice per action.
const MaxThresholdMDPRange = 40

// ThresholdAction returns the name of the action of AboveThresholdMDP that
// asks a query whose answer is m on the dataset and nb on its neighbour:
// "m5n4".
func ThresholdAction(m, nb int) string { return fmt.Sprintf("m%dn%d", m, nb) }

// AboveThresholdMDP returns the paper's above threshold mechanism as an MDP
// (Liu, Wang and Zhang, APLAS 2018, Algorithm 3 and its MDP): the analyst
// chooses each query after the first, through its answers on a dataset and
// on a neighbour, and the two are run side by side as two roles.
//
// The inputs are "role<i>_t<t>_r<r>" (role i, threshold t, first query's
// answer r, all in {0..n}; label in). From an input every action does the
// same: the noisy threshold T is drawn from the truncated alphaT-geometric
// mechanism around t over {0..n} and the first noisy answer from the
// truncated alphaQ-geometric mechanism around r; when the noisy answer
// compares to T as cmp says the run moves to the absorbing "top" (label
// top), otherwise to "role<i>_T<T>_bot" (label bot; role and T), which
// remembers T. There the action "m<m>n<nb>" (|m − nb| <= 1: 3n+1 actions)
// draws the next noisy answer around m in role 0 and around nb in role 1,
// and moves to top or stays as before. Pairs: (0, t, m) ~ (1, t, nb) for
// |m − nb| <= 1 and every t. ψ_k = X bot & … & X^k bot & X^(k+1) top is
// "the first k answers are ⊥ and answer k+1 is ⊤".
func AboveThresholdMDP(alphaT, alphaQ *big.Rat, n int, cmp Comparison) (*model.Mechanism, error) {
	return aboveThresholdMDP(context.Background(), alphaT, alphaQ, n, cmp)
}

// thresholdActions lists the pairs (m, nb) with |m − nb| <= 1 over {0..n},
// by m then nb.
func thresholdActions(n int) [][2]int {
	var acts [][2]int
	for m := 0; m <= n; m++ {
		for nb := max(0, m-1); nb <= min(n, m+1); nb++ {
			acts = append(acts, [2]int{m, nb})
		}
	}
	return acts
}

func aboveThresholdMDP(ctx context.Context, alphaT, alphaQ *big.Rat, n int, cmp Comparison) (*model.Mechanism, error) {
	thr, up, stay, err := thresholdTables(ctx, "above_threshold_mdp", alphaT, alphaQ, n, MaxThresholdMDPRange, cmp)
	if err != nil {
		return nil, err
	}
	acts := thresholdActions(n)
	names := make([]string, len(acts))
	for i, a := range acts {
		names[i] = ThresholdAction(a[0], a[1])
	}
	f := newMDPFrame()
	add := f.add
	top := add("top", nil, "top")
	// bot[i][T] is role i's ⊥ state with noisy threshold T.
	var bot [2][]int
	for i := range 2 {
		bot[i] = make([]int, n+1)
		for T := 0; T <= n; T++ {
			bot[i][T] = add(fmt.Sprintf("role%d_T%d_bot", i, T), chain.Valuation{{Name: "role", Value: int64(i)}, {Name: "T", Value: int64(T)}}, "bot")
		}
	}
	// answer is the choice of answering around c at threshold T from role
	// i's ⊥ state: top with up[c][T], stay with stay[c][T], zeros left out.
	answer := func(act, i, c, T int) mdp.Choice {
		ch := mdp.Choice{Action: act}
		if up[c][T].Sign() > 0 {
			ch.To, ch.P = append(ch.To, top), append(ch.P, up[c][T])
		}
		if stay[c][T].Sign() > 0 {
			ch.To, ch.P = append(ch.To, bot[i][T]), append(ch.P, stay[c][T])
		}
		return ch
	}
	for i := range 2 {
		for T := 0; T <= n; T++ {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			s := bot[i][T]
			for act, a := range acts {
				f.choices[s] = append(f.choices[s], answer(act, i, a[i], T))
			}
		}
	}
	// dist[t][r] is the distribution of an input's step, the same for both
	// roles and every action: ⊤ (T = -1) and then the ⊥ states by T, zeros
	// left out. Both roles share its probabilities.
	type step struct {
		T []int
		P []*big.Rat
	}
	dist := make([][]step, n+1)
	var acc chain.Accumulator
	for t := 0; t <= n; t++ {
		dist[t] = make([]step, n+1)
		for r := 0; r <= n; r++ {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			acc.Reset()
			d := step{T: []int{-1}, P: []*big.Rat{nil}}
			for T := 0; T <= n; T++ {
				pT := thr.prob(t, T)
				acc.Add(mul(pT, up[r][T]))
				if x := mul(pT, stay[r][T]); x.Sign() > 0 {
					d.T, d.P = append(d.T, T), append(d.P, x)
				}
			}
			d.P[0] = acc.Rat(nil)
			if d.P[0].Sign() == 0 {
				d.T, d.P = d.T[1:], d.P[1:]
			}
			dist[t][r] = d
		}
	}
	// input[i][t][r] is role i's input with threshold t and first answer r.
	var input [2][][]int
	for i := range 2 {
		input[i] = make([][]int, n+1)
		for t := 0; t <= n; t++ {
			input[i][t] = make([]int, n+1)
			for r := 0; r <= n; r++ {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				s := add(fmt.Sprintf("role%d_t%d_r%d", i, t, r), chain.Valuation{
					{Name: "role", Value: int64(i)}, {Name: "t", Value: int64(t)}, {Name: "r", Value: int64(r)}}, "in")
				input[i][t][r] = s
				f.b.MarkInput(s)
				d := dist[t][r]
				to := make([]int, len(d.T))
				for j, T := range d.T {
					to[j] = top
					if T >= 0 {
						to[j] = bot[i][T]
					}
				}
				// One distribution, shared by every action.
				f.choices[s] = make([]mdp.Choice, len(acts))
				for act := range acts {
					f.choices[s][act] = mdp.Choice{Action: act, To: to, P: d.P}
				}
			}
		}
	}
	var pairs [][2]int
	for t := 0; t <= n; t++ {
		for _, a := range acts {
			pairs = append(pairs, [2]int{input[0][t][a[0]], input[1][t][a[1]]})
		}
	}
	return f.mechanism(ctx, names, pairs, fmt.Sprintf("above threshold as an MDP (the analyst picks the queries' answers m on the dataset, n on its neighbour; halt at noisy answer %s noisy threshold), threshold noise %s-geometric, answer noise %s-geometric over {0..%d}",
		cmp, alphaT.RatString(), alphaQ.RatString(), n))
}
