package mdp

import (
	"context"
	"fmt"
	"math/big"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/verify"
)

// CheckD decides D{ε,δ}[ψ] for every pair of pairs (both directions) over
// query schedulers.
func CheckD(ctx context.Context, m *MDP, pairs [][2]int, path *verify.Formula, eps exact.Eps, delta *big.Rat, o Options) (*Result, error) {
	return deltaQuery(ctx, m, pairs, path, verify.Output{}, query{deltaMode: true, eps: eps, delta: delta, check: true}, o)
}

// TightDeltaD returns the least δ for which D{ε,δ}[ψ] holds for every
// pair, exactly when it can (see Result.Exact). Its verdict is Holds when
// Delta is exact, Unknown when the tight δ lies in [Delta, Upper].
func TightDeltaD(ctx context.Context, m *MDP, pairs [][2]int, path *verify.Formula, eps exact.Eps, o Options) (*Result, error) {
	return deltaQuery(ctx, m, pairs, path, verify.Output{}, query{deltaMode: true, eps: eps}, o)
}

// TightEpsilonD returns the least ε for which D{ε,δ}[ψ] holds for every
// pair, exactly when it can.
func TightEpsilonD(ctx context.Context, m *MDP, pairs [][2]int, path *verify.Formula, delta *big.Rat, o Options) (*EpsResult, error) {
	return epsQuery(ctx, m, pairs, path, verify.Output{}, delta, o)
}

// CheckDP decides (ε,δ)-DP over the output space out (final outputs, or
// traces of observed labels) for every pair and every query scheduler.
func CheckDP(ctx context.Context, m *MDP, pairs [][2]int, out verify.Output, eps exact.Eps, delta *big.Rat, o Options) (*Result, error) {
	return deltaQuery(ctx, m, pairs, nil, out, query{deltaMode: true, eps: eps, delta: delta, check: true}, o)
}

// TightDelta returns the least δ for which (ε,δ)-DP holds over out; its
// verdict is Holds when Delta is exact, Unknown otherwise.
func TightDelta(ctx context.Context, m *MDP, pairs [][2]int, out verify.Output, eps exact.Eps, o Options) (*Result, error) {
	return deltaQuery(ctx, m, pairs, nil, out, query{deltaMode: true, eps: eps}, o)
}

// TightEpsilon returns the least ε for which (ε,δ)-DP holds over out.
func TightEpsilon(ctx context.Context, m *MDP, pairs [][2]int, out verify.Output, delta *big.Rat, o Options) (*EpsResult, error) {
	return epsQuery(ctx, m, pairs, nil, out, delta, o)
}

// SufficientD returns Proposition 2's bound on the tight δ of D{ε,δ}[ψ]
// over query schedulers: the largest max(0, max_S Pr_s(ψ) −
// e^ε·min_S Pr_t(ψ)) over the pairs in both directions, the extremes over
// the schedulers that may pick any enabled choice or stay where an action
// is disabled (backward induction for a bounded ψ, policy iteration for an
// unbounded one). ψ is a bounded path formula that the search accepts
// (propositional operands, X, U<=k, F<=k, G<=k, !, &, |), or a path
// formula that Prob accepts.
func SufficientD(ctx context.Context, m *MDP, pairs [][2]int, path *verify.Formula, eps exact.Eps) (exact.Real, error) {
	p, err := newProblem(ctx, m, pairs)
	if err != nil {
		return exact.Real{}, err
	}
	// A formula the search takes gets the residuals' backward induction
	// when it is bounded; any other goes to Prob's.
	if err := p.setFormula(path); err != nil {
		p.f = nil
	}
	ans := &answer{}
	if err := ans.prop2(ctx, p, path, query{deltaMode: true, eps: eps}); err != nil {
		if u, ok := err.(*unsupportedError); ok {
			return exact.Real{}, u.error
		}
		return exact.Real{}, err
	}
	return *ans.upper, nil
}

// deltaQuery answers q (a check of δ, or the tight δ) about D{ε,δ}[path],
// or about dp over out when path is nil.
func deltaQuery(ctx context.Context, m *MDP, pairs [][2]int, path *verify.Formula, out verify.Output, q query, o Options) (*Result, error) {
	var checked []*big.Rat
	if q.check {
		checked = append(checked, q.delta)
	}
	p, err := pose(ctx, m, pairs, path, out, checked...)
	if err != nil {
		return nil, err
	}
	ans, err := solve(ctx, p, path, q, o)
	if err != nil {
		return nil, err
	}
	sr := ans.sr
	r := &Result{
		Exact: ans.exact, Reason: ans.reason, Horizon: sr.reached, From: -1, To: -1,
		Delta: exact.RatReal(new(big.Rat)), Upper: ans.upper,
		Explored: sr.explored, Pruned: sr.pruned, Transposed: sr.transposed, Weighed: sr.work,
	}
	if ans.bisim {
		r.Upper = nil
	}
	if sr.have {
		r.From, r.To = sr.bestDir[0], sr.bestDir[1]
		r.Sequence = sr.names(sr.bestSeq)
		if p.kind == kindD {
			r.ProbFrom, r.ProbTo = sr.bestFrom, sr.bestTo
		} else {
			r.Event = sr.bestEv
		}
		if c, err := sr.best.Sign(); err != nil {
			return nil, err
		} else if c > 0 {
			r.Delta = sr.best
		}
	}
	switch {
	case !q.check:
		r.Verdict = Unknown
		if r.Exact {
			r.Verdict = Holds
		}
	case ans.sufOnly:
		r.Verdict = HoldsSufficient
	default:
		over, err := r.Delta.Cmp(exact.RatReal(q.delta))
		if err != nil {
			return nil, err
		}
		switch {
		case over > 0:
			r.Verdict = Violated // a proven lower bound
		case r.Exact:
			r.Verdict = Holds
		default:
			r.Verdict = Unknown
			if r.Upper != nil {
				if c, err := r.Upper.Cmp(exact.RatReal(q.delta)); err != nil {
					return nil, err
				} else if c <= 0 {
					r.Verdict = HoldsSufficient
				}
			}
		}
	}
	return r, nil
}

// epsQuery computes the tight ε at δ of D{ε,δ}[path], or of dp over out
// when path is nil.
func epsQuery(ctx context.Context, m *MDP, pairs [][2]int, path *verify.Formula, out verify.Output, delta *big.Rat, o Options) (*EpsResult, error) {
	p, err := pose(ctx, m, pairs, path, out, delta)
	if err != nil {
		return nil, err
	}
	ans, err := solve(ctx, p, path, query{delta: delta}, o)
	if err != nil {
		return nil, err
	}
	sr := ans.sr
	r := &EpsResult{Exact: ans.exact, Reason: ans.reason, Horizon: sr.reached, From: -1, To: -1,
		Explored: sr.explored, Pruned: sr.pruned, Transposed: sr.transposed, Weighed: sr.work}
	if sr.have {
		r.From, r.To = sr.bestDir[0], sr.bestDir[1]
		r.Sequence = sr.names(sr.bestSeq)
	}
	switch {
	case sr.bestInf:
		r.Eps = exact.Inf()
	case sr.bestC != nil:
		r.Eps = exact.LnOf(sr.bestC)
	}
	if ans.hasUpper && !ans.bisim {
		var u exact.Eps
		if ans.upperInf {
			u = exact.Inf()
		} else {
			u = exact.LnOf(ans.upperC)
		}
		r.Upper = &u
	}
	return r, nil
}

// pose checks the δ given, if any (a query for the tight δ has none), and
// builds the problem of D{ε,δ}[path] over the pairs, or of dp over the
// output space out when path is nil.
func pose(ctx context.Context, m *MDP, pairs [][2]int, path *verify.Formula, out verify.Output, delta ...*big.Rat) (*problem, error) {
	for _, d := range delta {
		if d == nil || d.Sign() < 0 || d.Cmp(ratOne) > 0 {
			return nil, fmt.Errorf("mdp: δ must be a rational in [0, 1]")
		}
	}
	p, err := newProblem(ctx, m, pairs)
	if err != nil {
		return nil, err
	}
	if path != nil {
		err = p.setFormula(path)
	} else {
		err = p.setOutput(out)
	}
	return p, err
}
