package verify_test

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/model"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/verify"
)

// fuzzChain decodes bytes into a small chain: 2-4 inputs, 0-2 middle states
// (each with a self-loop of weight w, a cycle), 2-4 outputs. Every input
// reaches every output through the middle states with small integer
// weights. It returns the mechanism and each input's output distribution,
// computed here by hand, independently of the verifier.
func fuzzChain(data []byte) (*model.Mechanism, [][]*big.Rat, bool) {
	next := func() int {
		if len(data) == 0 {
			return 0
		}
		b := int(data[0])
		data = data[1:]
		return b
	}
	nIn, nMid, nOut := 2+next()%3, next()%3, 2+next()%3
	b := chain.NewBuilder()
	var in, mid, out []int
	for i := range nIn {
		in = append(in, b.AddState(fmt.Sprintf("i%d", i), nil))
		b.MarkInput(in[i])
	}
	for i := range nMid {
		mid = append(mid, b.AddState(fmt.Sprintf("m%d", i), nil))
	}
	for i := range nOut {
		out = append(out, b.AddState(fmt.Sprintf("o%d", i), nil))
	}
	// weights[w] normalised; returns probabilities.
	norm := func(ws []int64) []*big.Rat {
		var sum int64
		for _, w := range ws {
			sum += w
		}
		if sum == 0 {
			ws[0], sum = 1, 1
		}
		ps := make([]*big.Rat, len(ws))
		for i, w := range ws {
			ps[i] = big.NewRat(w, sum)
		}
		return ps
	}
	// Middle states: self-loop then outputs.
	midDist := make([][]*big.Rat, nMid)
	for i, m := range mid {
		ws := make([]int64, 1+nOut)
		for j := range ws {
			ws[j] = int64(next() % 4)
		}
		if ws[1:][0]+ws[len(ws)-1] == 0 {
			ws[1] = 1 // the middle state must be able to leave
		}
		ps := norm(ws)
		b.AddTransition(m, m, ps[0])
		stay := new(big.Rat).Sub(big.NewRat(1, 1), ps[0])
		midDist[i] = make([]*big.Rat, nOut)
		for j := range nOut {
			b.AddTransition(m, out[j], ps[1+j])
			midDist[i][j] = new(big.Rat).Quo(ps[1+j], stay) // Σ_k loop^k · p = p/(1 - loop)
		}
	}
	dists := make([][]*big.Rat, nIn)
	for i, s := range in {
		ws := make([]int64, nMid+nOut)
		for j := range ws {
			ws[j] = int64(next() % 5)
		}
		ps := norm(ws)
		d := make([]*big.Rat, nOut)
		for j := range d {
			d[j] = new(big.Rat).Set(ps[nMid+j])
			b.AddTransition(s, out[j], ps[nMid+j])
		}
		for k, m := range mid {
			b.AddTransition(s, m, ps[k])
			for j := range d {
				d[j].Add(d[j], new(big.Rat).Mul(ps[k], midDist[k][j]))
			}
		}
		dists[i] = d
	}
	c, err := b.Build()
	if err != nil {
		return nil, nil, false
	}
	var pairs [][2]int
	for i := range in {
		for j := i + 1; j < len(in); j++ {
			pairs = append(pairs, [2]int{in[i], in[j]})
		}
	}
	return &model.Mechanism{Chain: c, Neighbours: pairs}, dists, true
}

// FuzzVerifier: on random small chains with cycles, the output
// distributions equal the hand-computed ones, the tight δ equals the
// brute-force maximum over all events, dp agrees with it on both sides, and
// the tight ε holds while a smaller one fails.
//
//	go test ./verify -run '^$' -fuzz FuzzVerifier -fuzztime 60s
func FuzzVerifier(f *testing.F) {
	f.Add([]byte{1, 1, 2, 3, 0, 1, 2, 4, 1, 0, 3, 2, 1, 0, 4}, uint8(1), uint8(0))
	f.Add([]byte{2, 2, 2, 3, 3, 3, 3, 0, 0, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 4, 4, 4}, uint8(3), uint8(2))
	f.Add([]byte{0, 0, 0, 4, 0, 0, 4, 1, 7}, uint8(5), uint8(5))
	epsChoices := []string{"0", "ln(3/2)", "ln(2)", "1/2", "1/2*ln(3)", "ln(2) - 1/10"}
	f.Fuzz(func(t *testing.T, data []byte, epsChoice, deltaNum uint8) {
		m, dists, ok := fuzzChain(data)
		if !ok {
			return
		}
		ctx := context.Background()
		a, err := verify.Analyze(ctx, &verify.Model{Chain: m.Chain, Neighbours: m.Neighbours})
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range m.Chain.Inputs() {
			for j, want := range dists[i] {
				if got := a.Prob(s, fmt.Sprintf("o%d", j)); got.Cmp(want) != 0 {
					t.Fatalf("Pr(o%d | i%d) = %s, by hand %s", j, i, got.RatString(), want.RatString())
				}
			}
		}
		e, err := parseEpsLiteral(epsChoices[int(epsChoice)%len(epsChoices)])
		if err != nil {
			t.Fatal(err)
		}
		want := bruteDelta(t, dists, e)
		got, err := a.TightDelta(ctx, e)
		if err != nil {
			t.Fatal(err)
		}
		if c, err := got.Delta.Cmp(want); err != nil || c != 0 {
			t.Fatalf("TightDelta(%s) = %s, brute force %s", e, got.Delta, want)
		}
		delta := big.NewRat(int64(deltaNum%11), 10)
		ge, err := a.TightEpsilon(ctx, delta)
		if err != nil {
			t.Fatal(err)
		}
		if !ge.Eps.IsInf() {
			if !dp(t, a, ge.Eps, delta.RatString()).Holds {
				t.Fatalf("dp fails at the tight ε %s, δ = %s", ge.Eps, delta.RatString())
			}
			if c, ok := ge.Eps.C(); ok && ge.Eps.Sign() > 0 {
				below := new(big.Rat).Sub(c, big.NewRat(1, 1000))
				if below.Cmp(big.NewRat(1, 1)) > 0 && dp(t, a, ln(below.RatString()), delta.RatString()).Holds {
					t.Fatalf("dp holds below the tight ε %s at δ = %s", ge.Eps, delta.RatString())
				}
			}
		}
		if d, ok := want.Rat(); ok && delta.Cmp(d) < 0 && dp(t, a, e, delta.RatString()).Holds {
			t.Fatalf("dp(%s, %s) holds though the brute-force δ is %s", e, delta.RatString(), d.RatString())
		}
	})
}

// parseEpsLiteral reads "0",
// "ln(3)", "2*ln(3)", "3/2*ln(2)", "ln(2) - 1/10", "1/10", "inf".
func parseEpsLiteral(s string) (exact.Eps, error) {
	s = strings.ReplaceAll(strings.TrimSpace(s), " ", "")
	if s == "inf" || s == "∞" {
		return exact.Inf(), nil
	}
	i := strings.Index(s, "ln(")
	if i < 0 {
		q, ok := new(big.Rat).SetString(s)
		if !ok {
			return exact.Eps{}, fmt.Errorf("%w: %q", exact.ErrEps, s)
		}
		return exact.Rational(q)
	}
	j := strings.Index(s[i:], ")")
	if j < 0 {
		return exact.Eps{}, fmt.Errorf("%w: unclosed ln( in %q", exact.ErrEps, s)
	}
	k := big.NewRat(1, 1)
	if i > 0 {
		ks := strings.TrimSuffix(strings.TrimSuffix(s[:i], "*"), "·")
		if _, ok := k.SetString(ks); !ok {
			return exact.Eps{}, fmt.Errorf("%w: bad coefficient %q", exact.ErrEps, ks)
		}
	}
	r, ok := new(big.Rat).SetString(s[i+3 : i+j])
	if !ok {
		return exact.Eps{}, fmt.Errorf("%w: bad argument of ln in %q", exact.ErrEps, s)
	}
	var q *big.Rat
	if rest := s[i+j+1:]; rest != "" {
		q, ok = new(big.Rat).SetString(strings.TrimPrefix(rest, "+"))
		if !ok {
			return exact.Eps{}, fmt.Errorf("%w: bad rational part %q", exact.ErrEps, rest)
		}
	}
	return exact.LnPlus(k, r, q)
}
