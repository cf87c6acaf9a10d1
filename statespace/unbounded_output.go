package statespace

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/geosum"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/source"
)

// The outputs of a program with unbounded integers: each run's end, the
// observed unbounded variable's values listed, and its tails merged where
// every likelihood ratio is constant.

// add adds p to the output of input in with bounded values v and the
// observed unbounded variable's value val (or tail).
func (r *urun[T]) add(in int, v []int64, val *int64, tail string, p T) error {
	if r.alg.IsZero(p) {
		return nil
	}
	k := r.outKey(v, val, tail)
	s, ok := r.outs[k]
	if !ok {
		s = r.x.inputs + len(r.states)
		r.outs[k] = s
		st := ustate{val: r.observedValuation(v, val)}
		if tail != "" {
			// A merged tail has no value: the verifier keys it by its
			// name, which says what it is, the observed variables in the
			// order the outputs name them ("v≥13", "(top=1, v≤-2)").
			st.val = r.observedValuation(v, nil)
			st.name = r.outputName(v, tail)
		}
		r.states = append(r.states, st)
	}
	if old, ok := r.rows[in][s]; ok {
		var err error
		if p, err = r.alg.Add(old, p); err != nil {
			return r.failed(err)
		}
	} else if err := r.outputsFit(1, ""); err != nil {
		return err
	} else {
		r.trans++
	}
	r.rows[in][s] = p
	return nil
}

// outputName names an output as the verifier does, the observed
// variables in the order the outputs name them, with part for the
// observed unbounded variable ("v≥13", "(top=1, v=-2)").
func (r *urun[T]) outputName(v []int64, part string) string {
	val := r.observedValuation(v, nil)
	var parts []string
	for _, n := range r.x.p.m.Observed {
		if y, ok := val.Get(n); ok {
			parts = append(parts, n+"="+strconv.FormatInt(y, 10))
		} else {
			parts = append(parts, part)
		}
	}
	if len(parts) > 1 {
		return "(" + strings.Join(parts, ", ") + ")"
	}
	return strings.Join(parts, ", ")
}

// outputsFit returns a limit error unless n more entries of the inputs'
// rows fit within Limits.MaxTransitions and, when what is set (saying
// what they are: "%s values of v for %s inputs"), their estimated bytes
// within Limits.MaxMemory. It is called before the values are listed, so
// the limit speaks before the memory runs out.
func (r *urun[T]) outputsFit(n int64, what string) error {
	max := int64(r.x.limits.MaxTransitions)
	pos := r.x.p.m.ObservedPos
	if pos.Line == 0 {
		pos = r.x.p.m.Pos
	}
	if r.trans+n <= max-int64(len(r.states))-1 { // with the outputs' self-loops
		if bytes := (r.trans + n) * entryBytes; bytes > r.x.limits.MaxMemory && what != "" {
			return source.ErrorList{{Pos: pos, Limit: string(model.LimitMemory), Msg: fmt.Sprintf("the outputs list "+what+", about %s transitions in all, which would need about %s of memory; the limit is %s",
				exact.Thousands(r.trans+n), model.Bytes(bytes), model.Bytes(r.x.limits.MaxMemory))}}
		}
		return nil
	}
	msg := fmt.Sprintf("the chain would have more than %s transitions, the limit", exact.Thousands(max))
	if what != "" {
		msg = fmt.Sprintf("the outputs list "+what+", about %s transitions in all; the limit is %s transitions", exact.Thousands(r.trans+n), exact.Thousands(max))
	}
	return source.ErrorList{{Pos: pos, Msg: msg, Limit: string(model.LimitTransitions)}}
}

// outKey is the key of the output of bounded values v and the observed
// unbounded variable's value val (or tail).
func (r *urun[T]) outKey(v []int64, val *int64, tail string) string {
	k := r.observedKey(v) + tail
	if val != nil {
		k += strconv.FormatInt(*val, 10)
	}
	return k
}

// refuseVarying is the refusal of a tail whose ratios vary, err (from
// proportional), for every value of a parameter: it says what to do.
func (r *urun[T]) refuseVarying(err error) error {
	el, ok := err.(source.ErrorList)
	if !ok {
		return err
	}
	el[0].Msg += ": for every value of a parameter, a tail is one output only where its ratios are constant (or observe a bounded function of it)"
	return el
}

// valuation is an input's valuation: every variable.
func (r *urun[T]) valuation(v []int64) chain.Valuation {
	out := make(chain.Valuation, len(v))
	for i, y := range v {
		out[i] = chain.Var{Name: r.x.p.m.Vars[i].Name, Value: y}
	}
	return out
}

// observedKey is the key of the observed bounded variables' values in v.
func (r *urun[T]) observedKey(v []int64) string {
	var b strings.Builder
	for i, y := range v {
		if r.observes(i) && !r.x.p.m.Vars[i].Unbounded {
			b.WriteString(strconv.FormatInt(y, 10))
			b.WriteByte(',')
		}
	}
	return b.String()
}

func (r *urun[T]) observes(i int) bool {
	for _, n := range r.x.p.m.Observed {
		if n == r.x.p.m.Vars[i].Name {
			return true
		}
	}
	return false
}

// observedValuation is an output's valuation: the observed variables'
// values, the unbounded one's val.
func (r *urun[T]) observedValuation(v []int64, val *int64) chain.Valuation {
	var out chain.Valuation
	for i, y := range v {
		vr := r.x.p.m.Vars[i]
		switch {
		case !r.observes(i):
		case vr.Unbounded:
			if val != nil {
				out = append(out, chain.Var{Name: vr.Name, Value: *val})
			}
		default:
			out = append(out, chain.Var{Name: vr.Name, Value: y})
		}
	}
	return out
}

// maxOutputValues bounds the values of an observed unbounded variable
// listed one by one, between its tails: a hundredth of the states a model
// may have (100 000 by default).
func maxOutputValues(l model.Limits) int64 { return int64(l.MaxStates) / 100 }

// maxSpread bounds the values listed past the start of a tail whose
// likelihood ratios vary, until every two inputs compare one way (and
// those looked at for the supremum of their ratio): a 5000th of the states
// a model may have (2 000 by default). Each value costs powers that grow
// with it, and the work with the cube of the values: an ε within 10^-3000
// of a limit ratio lists 6 300 values in a minute.
func maxSpread(l model.Limits) int64 { return max(1, int64(l.MaxStates)/5000) }

// entryBytes is about what one entry of an input's row costs by the time
// the chain is built (a module drawing an unbounded integer around each of
// 1 001 inputs: 578 MB for a million entries), for the memory limit.
const entryBytes = 600

// observe lists the outputs of runs that end observing the unbounded
// variable k: every value between the least and the greatest end of a
// piece of any run's weight, and each tail beyond as one output when the
// inputs' weights there are proportional (every likelihood ratio is
// constant on it, so merging its outputs changes no divergence).
func (r *urun[T]) observe(finals []final[T]) error {
	k := r.u.observed
	name := r.x.p.m.Vars[r.u.vars[k]].Name
	type end struct {
		v  []int64
		ws map[int]geosum.Weight[T]
	}
	ends := map[string]*end{}
	var keys []string
	for _, f := range finals {
		var others []int
		for j := range r.u.vars {
			if j != k {
				others = append(others, j)
			}
		}
		w, err := r.s.SumOutAll(f.cfg.w, others)
		if err != nil {
			return r.failed(err)
		}
		kk := r.observedKey(f.cfg.v)
		e, ok := ends[kk]
		if !ok {
			e = &end{v: f.cfg.v, ws: map[int]geosum.Weight[T]{}}
			ends[kk] = e
			keys = append(keys, kk)
		}
		e.ws[f.in] = geosum.Add(e.ws[f.in], w)
	}
	sort.Strings(keys)
	n := len(r.u.vars)
	point := func(x int64) []int64 {
		p := make([]int64, n)
		p[k] = x
		return p
	}
	for _, kk := range keys {
		e := ends[kk]
		var lo, hi int64
		found := false
		for _, w := range e.ws {
			for _, p := range w.Pieces {
				l, hasL, h, hasH := p.Region.Interval(k)
				for _, b := range []struct {
					x  int64
					ok bool
				}{{l, hasL}, {h, hasH}} {
					if !b.ok {
						continue
					}
					if !found || b.x < lo {
						lo = b.x
					}
					if !found || b.x > hi {
						hi = b.x
					}
					found = true
				}
			}
		}
		if max := maxOutputValues(r.x.limits); hi-lo >= max {
			return source.ErrorList{{Pos: r.x.p.m.ObservedPos, Msg: fmt.Sprintf("the outputs list %s values of %s one by one, more than the limit of %s", exact.Thousands(hi-lo+1), name, exact.Thousands(max)), Limit: string(model.LimitStates)}}
		}
		ins := make([]int, 0, len(e.ws))
		for in := range e.ws {
			ins = append(ins, in)
		}
		sort.Ints(ins)
		if err := r.outputsFit((hi-lo+1)*int64(len(ins)), fmt.Sprintf("%s values of %s for %s inputs", exact.Thousands(hi-lo+1), name, exact.Thousands(int64(len(ins))))); err != nil {
			return err
		}
		// list adds each input's probability of the value x, one output.
		list := func(x int64) error {
			if err := r.x.ctx.Err(); err != nil {
				return err
			}
			for _, in := range ins {
				p, err := r.s.Eval(e.ws[in], point(x))
				if err != nil {
					return r.failed(err)
				}
				if err := r.add(in, e.v, &x, "", p); err != nil {
					return err
				}
			}
			return nil
		}
		for x := lo; x <= hi; x++ {
			if err := list(x); err != nil {
				return err
			}
		}
		// The tails: x ≥ hi+1 and x ≤ lo−1, each merged where its ratios
		// are constant, else listed on as far as the statements' ε need.
		listed := hi - lo + 1
		for _, t := range []struct {
			at, dir int64
			sign    string
		}{{hi + 1, 1, "≥"}, {lo - 1, -1, "≤"}} {
			at, varies := t.at, false
			if err := r.proportional(e.ws, ins, point(t.at), name, t.sign, t.at); err != nil {
				if r.spread == nil {
					return r.refuseVarying(err)
				}
				varies = true
				limit := min(maxOutputValues(r.x.limits)-listed, maxSpread(r.x.limits))
				steps, serr := r.spread(e.ws, ins, t.at, t.dir, limit)
				if serr != nil {
					if _, long := serr.(errTooLong); long {
						return r.spreadError(name, t.sign, t.at, limit)
					}
					return serr
				}
				listed += steps
				if err := r.outputsFit(steps*int64(len(ins)), fmt.Sprintf("%s more values of %s%s%d for %s inputs", exact.Thousands(steps), name, t.sign, t.at, exact.Thousands(int64(len(ins))))); err != nil {
					return err
				}
				for ; steps > 0; steps-- {
					if err := list(at); err != nil {
						return err
					}
					at += t.dir
				}
			}
			f, g := geosum.Const(at), geosum.Var(k, 1, 0)
			if t.dir < 0 {
				f, g = g, f
			}
			for _, in := range ins {
				p, err := r.s.Total(r.s.Restrict(e.ws[in], f, g))
				if err != nil {
					return r.failed(err)
				}
				val := at
				if err := r.add(in, e.v, &val, name+t.sign+strconv.FormatInt(at, 10), p); err != nil {
					return err
				}
				if varies {
					r.states[r.outs[r.outKey(e.v, &val, name+t.sign+strconv.FormatInt(at, 10))]-r.x.inputs].varies = true
				}
			}
			if varies && r.keep != nil {
				v := e.v
				value := func(x int64) string { return r.outputName(v, name+"="+strconv.FormatInt(x, 10)) }
				if err := r.keep(e.ws, ins, at, t.dir, r.outputName(v, name+t.sign+strconv.FormatInt(at, 10)), value); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// proportional checks that the inputs' weights on the tail through x are
// proportional: the same geometric terms, coefficients in one ratio.
func (r *urun[T]) proportional(ws map[int]geosum.Weight[T], ins []int, x []int64, name, sign string, at int64) error {
	k, f := r.u.observed, r.alg
	type term struct{ base, coef T }
	var ref []term
	refIn := -1
	for _, in := range ins {
		var ts []term
		for _, p := range ws[in].Pieces {
			if !p.Region.Contains(x) {
				continue
			}
		next:
			for _, t := range p.Terms {
				b := f.one()
				if t.Base[k] != nil {
					b = *t.Base[k]
				}
				for i := range ts {
					if f.Equal(ts[i].base, b) {
						c, err := f.Add(ts[i].coef, t.Coef)
						if err != nil {
							return r.failed(err)
						}
						ts[i].coef = c
						continue next
					}
				}
				ts = append(ts, term{b, t.Coef})
			}
		}
		nz := ts[:0]
		for _, t := range ts {
			if !f.IsZero(t.coef) {
				nz = append(nz, t)
			}
		}
		if len(nz) == 0 {
			continue
		}
		if ref == nil {
			ref, refIn = nz, in
			continue
		}
		ok := len(nz) == len(ref)
		var lambda *T
		for _, t := range nz {
			if !ok {
				break
			}
			ok = false
			for _, u := range ref {
				if f.Equal(u.base, t.base) {
					q, err := f.Quo(t.coef, u.coef)
					if err != nil {
						return r.failed(err)
					}
					if lambda == nil {
						lambda = &q
					}
					ok = f.Equal(q, *lambda)
				}
			}
		}
		if !ok {
			return source.ErrorList{{Pos: r.x.p.m.ObservedPos, Msg: fmt.Sprintf("the likelihood ratio of the outputs %s%s%d between the inputs %s and %s varies with %s", name, sign, at, r.x.describe(r.x.state(refIn)), r.x.describe(r.x.state(in)), name)}}
		}
	}
	return nil
}
