package verify_test

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/model"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/verify"
)

// randomMechanism returns a one-step chain: nIn inputs, each with a random
// exact distribution over nOut outputs built from small integer weights, so
// that ties between ratios (the hard case for any filter) are frequent and
// zero probabilities (infinite ratios) occur. All pairs of inputs are
// neighbours. rows[i][o] is the distribution, for brute force.
func randomMechanism(t testing.TB, rng *rand.Rand, nIn, nOut int) (*model.Mechanism, [][]*big.Rat) {
	t.Helper()
	b := chain.NewBuilder()
	outs := make([]int, nOut)
	for o := range outs {
		outs[o] = b.AddState(fmt.Sprintf("o%d", o), nil)
	}
	rows := make([][]*big.Rat, nIn)
	var ins []int
	for i := range nIn {
		s := b.AddState(fmt.Sprintf("i%d", i), nil)
		b.MarkInput(s)
		ins = append(ins, s)
		w := make([]int64, nOut)
		var sum int64
		for sum == 0 {
			sum = 0
			for o := range w {
				w[o] = rng.Int64N(5)
				if rng.IntN(4) == 0 {
					w[o] = 0
				}
				sum += w[o]
			}
		}
		rows[i] = make([]*big.Rat, nOut)
		for o := range w {
			rows[i][o] = big.NewRat(w[o], sum)
			b.AddTransition(s, outs[o], rows[i][o])
		}
	}
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	var pairs [][2]int
	for i := range ins {
		for j := i + 1; j < len(ins); j++ {
			pairs = append(pairs, [2]int{ins[i], ins[j]})
		}
	}
	return &model.Mechanism{Chain: c, Neighbours: pairs}, rows
}

// bruteDelta is max over ordered pairs and all 2^nOut events E of
// Pr_s(E) - c·Pr_t(E) (at least 0), as an exact Real.
func bruteDelta(t testing.TB, rows [][]*big.Rat, e exact.Eps) exact.Real {
	t.Helper()
	best := exact.RatReal(new(big.Rat))
	for s := range rows {
		for u := range rows {
			if s == u {
				continue
			}
			for mask := 1; mask < 1<<len(rows[s]); mask++ {
				A, B := new(big.Rat), new(big.Rat)
				for o := range rows[s] {
					if mask&(1<<o) != 0 {
						A.Add(A, rows[s][o])
						B.Add(B, rows[u][o])
					}
				}
				v := exact.Affine(A, new(big.Rat).Neg(B), e)
				c, err := v.Cmp(best)
				if err != nil {
					t.Fatal(err)
				}
				if c > 0 {
					best = v
				}
			}
		}
	}
	return best
}

func propertyEpsilons() []exact.Eps {
	half, _ := exact.MulLn(big.NewRat(1, 2), big.NewRat(3, 1)) // algebraic c = √3
	return []exact.Eps{
		{}, ln("3/2"), ln("2"), ln("3"), ln("5/2"), half,
		rational(big.NewRat(1, 2)), rational(big.NewRat(7, 10)), // transcendental c
	}
}

// TestHockeyStickMatchesBruteForce: the tight δ equals the maximum over all
// subsets of outputs, and DP agrees with it on both sides.
func TestHockeyStickMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	ctx := context.Background()
	for trial := range 150 {
		m, rows := randomMechanism(t, rng, 2+rng.IntN(3), 2+rng.IntN(5))
		a := analyze(t, m, verify.FinalState())
		for _, e := range propertyEpsilons() {
			want := bruteDelta(t, rows, e)
			got, err := a.TightDelta(ctx, e)
			if err != nil {
				t.Fatal(err)
			}
			if c, err := got.Delta.Cmp(want); err != nil || c != 0 {
				t.Fatalf("trial %d, ε=%s: TightDelta = %s, brute force = %s (rows %v)", trial, e, got.Delta, want, rows)
			}
			if d, ok := want.Rat(); ok {
				if res := dp(t, a, e, d.RatString()); !res.Holds {
					t.Fatalf("trial %d: dp(%s, %s) fails at the tight δ", trial, e, d.RatString())
				}
				if d.Sign() > 0 {
					below := new(big.Rat).Sub(d, big.NewRat(1, 1_000_000))
					if below.Sign() < 0 {
						below.SetInt64(0)
					}
					res := dp(t, a, e, below.RatString())
					if res.Holds {
						t.Fatalf("trial %d: dp(%s, %s) holds below the tight δ %s", trial, e, below.RatString(), d.RatString())
					}
					if c, err := res.Counterexample.Excess.Sign(); err != nil || c <= 0 {
						t.Fatalf("trial %d: counterexample excess %s is not positive", trial, res.Counterexample.Excess)
					}
				}
			}
		}
	}
}

// TestTightEpsilonIsTight: dp holds at the tight ε and fails at smaller
// rational ε, for δ = 0 and δ > 0.
func TestTightEpsilonIsTight(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for trial := range 150 {
		m, rows := randomMechanism(t, rng, 2+rng.IntN(3), 2+rng.IntN(5))
		a := analyze(t, m, verify.FinalState())
		for _, delta := range []string{"0", "1/20", "1/7", "1/3"} {
			res := tightEps(t, a, delta)
			if res.Eps.IsInf() {
				// Brute force: some output has Pr_t = 0 with Pr_s > δ... checked
				// via the profile: δ(∞) > δ.
				if dp(t, a, ln("1000000"), delta).Holds {
					t.Fatalf("trial %d: tight ε is ∞ at δ=%s but dp(ln 10^6) holds", trial, delta)
				}
				continue
			}
			if !dp(t, a, res.Eps, delta).Holds {
				t.Fatalf("trial %d: dp(%s, %s) fails at the tight ε (rows %v)", trial, res.Eps, delta, rows)
			}
			// Brute force at c*: the worst event's excess is at most δ.
			bd := bruteDelta(t, rows, res.Eps)
			if c, err := bd.Sub(exact.RatReal(r(delta))).Sign(); err != nil || c > 0 {
				t.Fatalf("trial %d: brute-force δ at tight ε %s is %s > %s", trial, res.Eps, bd, delta)
			}
			if res.Eps.IsZero() {
				continue
			}
			// Any smaller ε fails: a rational one just below (transcendental c)
			// and ln(c* - 1/10^6) (rational c).
			cstar, _ := res.Eps.C()
			lower := new(big.Rat).Sub(cstar, big.NewRat(1, 1_000_000))
			if lower.Cmp(big.NewRat(1, 1)) >= 0 {
				if dp(t, a, ln(lower.RatString()), delta).Holds {
					t.Fatalf("trial %d: dp(ln(%s), %s) holds below the tight ε %s", trial, lower.RatString(), delta, res.Eps)
				}
			}
			q := new(big.Rat).SetFloat64(res.Eps.Float() * (1 - 1e-9))
			if q.Sign() > 0 {
				if c, _ := rational(q).Cmp(res.Eps); c >= 0 {
					t.Fatalf("trial %d: %s is not below %s", trial, q.RatString(), res.Eps)
				}
				if dp(t, a, rational(q), delta).Holds {
					t.Fatalf("trial %d: dp(%s, %s) holds below the tight ε %s", trial, q.RatString(), delta, res.Eps)
				}
			}
		}
	}
}

// TestProfileMatchesTightDelta: every breakpoint of the profile and points
// between them agree with TightDelta.
func TestProfileMatchesTightDelta(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	ctx := context.Background()
	for trial := range 60 {
		m, _ := randomMechanism(t, rng, 2+rng.IntN(3), 2+rng.IntN(5))
		a := analyze(t, m, verify.FinalState())
		p, err := a.Profile(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var cs []*big.Rat
		for i, pt := range p.Points {
			cs = append(cs, pt.C)
			if i > 0 {
				mid := new(big.Rat).Add(pt.C, p.Points[i-1].C)
				cs = append(cs, mid.Quo(mid, big.NewRat(2, 1)))
			}
		}
		last := p.Points[len(p.Points)-1].C
		cs = append(cs, new(big.Rat).Add(last, big.NewRat(3, 1)))
		for _, c := range cs {
			want := tightDelta(t, a, ln(c.RatString()))
			if got := p.DeltaAt(c); got.Cmp(want) != 0 {
				t.Fatalf("trial %d: profile at c=%s is %s, TightDelta %s", trial, c.RatString(), got.RatString(), want.RatString())
			}
		}
	}
}

// TestTinyDelta: δ far below float64's range is decided exactly (the filter
// steps aside).
func TestTinyDelta(t *testing.T) {
	a := analyze(t, mustMech(t)(builder.Survey(r("1/2"), r("1/2"))), verify.FinalState())
	tiny := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), 5000)) // 2^-5000
	res, err := a.DP(context.Background(), ln("3"), tiny)
	if err != nil || !res.Holds {
		t.Errorf("dp(ln 3, 2^-5000): %v, %v; want holds", res, err)
	}
	res, err = a.DP(context.Background(), ln("2"), tiny)
	if err != nil || res.Holds {
		t.Errorf("dp(ln 2, 2^-5000): %v, %v; want violated", res, err)
	}
	if x, _ := res.Counterexample.Excess.Rat(); x.Cmp(new(big.Rat).Sub(r("1/4"), tiny)) != 0 {
		t.Errorf("excess %s, want 1/4 - 2^-5000", res.Counterexample.Excess)
	}
}

// TestRandomCyclicAbsorption: on random chains whose transient states form
// cycles (self-loops, back edges, several SCCs), the absorption
// probabilities the verifier computes SCC by SCC equal those of a naive
// dense solve of (I - Q)·x = R by Gaussian elimination over the rationals.
// Every transient state has an edge to an absorbing state, so I - Q is
// invertible.
func TestRandomCyclicAbsorption(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for iter := range 150 {
		nT, nA := 2+rng.IntN(5), 1+rng.IntN(3)
		b := chain.NewBuilder()
		trans := make([]int, nT)
		for i := range trans {
			trans[i] = b.AddState(fmt.Sprintf("s%d", i), nil)
			b.MarkInput(trans[i])
		}
		abs := make([]int, nA)
		for j := range abs {
			abs[j] = b.AddState(fmt.Sprintf("a%d", j), nil)
		}
		// Q[i][k] and R[i][j], from small integer weights.
		Q := make([][]*big.Rat, nT)
		R := make([][]*big.Rat, nT)
		for i := range nT {
			wq := make([]int64, nT)
			wr := make([]int64, nA)
			var sum int64
			for k := range wq {
				if rng.IntN(2) == 0 {
					wq[k] = rng.Int64N(4)
				}
				sum += wq[k]
			}
			wr[rng.IntN(nA)] = 1 + rng.Int64N(3) // some way out
			for j := range wr {
				if rng.IntN(3) == 0 {
					wr[j] += rng.Int64N(3)
				}
			}
			for _, w := range wr {
				sum += w
			}
			Q[i] = make([]*big.Rat, nT)
			R[i] = make([]*big.Rat, nA)
			for k, w := range wq {
				Q[i][k] = big.NewRat(w, sum)
				if w > 0 {
					b.AddTransition(trans[i], trans[k], Q[i][k])
				}
			}
			for j, w := range wr {
				R[i][j] = big.NewRat(w, sum)
				if w > 0 {
					b.AddTransition(trans[i], abs[j], R[i][j])
				}
			}
		}
		c, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		var pairs [][2]int
		for i := 1; i < nT; i++ {
			pairs = append(pairs, [2]int{trans[i-1], trans[i]})
		}
		a := analyze(t, &model.Mechanism{Chain: c, Neighbours: pairs}, verify.FinalState())
		want := solveDense(Q, R)
		for i := range nT {
			for j := range nA {
				if got := a.Prob(trans[i], fmt.Sprintf("a%d", j)); got.Cmp(want[i][j]) != 0 {
					t.Fatalf("chain %d: Pr(s%d → a%d) = %s, want %s", iter, i, j, got.RatString(), want[i][j].RatString())
				}
			}
		}
	}
}

// solveDense returns X with (I - Q)·X = R, by Gauss–Jordan elimination.
func solveDense(Q, R [][]*big.Rat) [][]*big.Rat {
	n, m := len(Q), len(R[0])
	A := make([][]*big.Rat, n) // [I - Q | R]
	for i := range n {
		A[i] = make([]*big.Rat, n+m)
		for k := range n {
			A[i][k] = new(big.Rat).Neg(Q[i][k])
			if i == k {
				A[i][k].Add(A[i][k], big.NewRat(1, 1))
			}
		}
		for j := range m {
			A[i][n+j] = new(big.Rat).Set(R[i][j])
		}
	}
	for col := range n {
		p := col
		for A[p][col].Sign() == 0 {
			p++
		}
		A[col], A[p] = A[p], A[col]
		inv := new(big.Rat).Inv(A[col][col])
		for k := range A[col] {
			A[col][k].Mul(A[col][k], inv)
		}
		for i := range n {
			if i == col || A[i][col].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Set(A[i][col])
			for k := range A[i] {
				A[i][k].Sub(A[i][k], new(big.Rat).Mul(f, A[col][k]))
			}
		}
	}
	X := make([][]*big.Rat, n)
	for i := range n {
		X[i] = A[i][n:]
	}
	return X
}
