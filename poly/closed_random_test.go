package poly

import (
	"context"
	"math"
	"math/big"
	"math/rand"
	"strings"
	"testing"
)

// closedPrec is the precision of the independent evaluation of a printed
// closed form.
const closedPrec = 400

// closedParser evaluates a printed closed form ("(3 − √5)/4",
// "−(1/16)^(1/3)", "3√2") in big.Float, independently of the printer.
type closedParser struct {
	s []rune
	i int
}

func (p *closedParser) peek() rune {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}
func (p *closedParser) skip() {
	for p.peek() == ' ' {
		p.i++
	}
}
func nf() *big.Float { return new(big.Float).SetPrec(closedPrec) }

func (p *closedParser) expr() *big.Float {
	p.skip()
	v := p.term()
	for {
		p.skip()
		switch p.peek() {
		case '+':
			p.i++
			p.skip()
			v = nf().Add(v, p.term())
		case '−':
			p.i++
			p.skip()
			v = nf().Sub(v, p.term())
		default:
			return v
		}
	}
}
func (p *closedParser) term() *big.Float {
	v := p.unary()
	for {
		if p.peek() == '/' {
			p.i++
			v = nf().Quo(v, p.unary())
		} else {
			return v
		}
	}
}
func (p *closedParser) unary() *big.Float {
	if p.peek() == '−' {
		p.i++
		return nf().Neg(p.unary())
	}
	return p.power()
}

// kroot returns c^(1/k) for c > 0 by Newton's method from a float64 guess.
func kroot(c *big.Float, k int) *big.Float {
	x := nf().SetFloat64(1)
	f, _ := c.Float64()
	if f > 0 {
		x.SetFloat64(math.Pow(f, 1/float64(k)))
	}
	for it := 0; it < 2000; it++ {
		// x = x - (x^k - c)/(k x^(k-1))
		xk1 := nf().SetFloat64(1)
		for j := 0; j < k-1; j++ {
			xk1.Mul(xk1, x)
		}
		xk := nf().Mul(xk1, x)
		d := nf().Quo(nf().Sub(xk, c), nf().Mul(nf().SetInt64(int64(k)), xk1))
		x = nf().Sub(x, d)
	}
	return x
}
func (p *closedParser) power() *big.Float {
	v := p.atom()
	if strings.HasPrefix(string(p.s[p.i:]), "^(1/") {
		p.i += 4
		j := p.i
		for p.peek() >= '0' && p.peek() <= '9' {
			p.i++
		}
		k := 0
		for _, r := range p.s[j:p.i] {
			k = k*10 + int(r-'0')
		}
		p.i++ // )
		v = kroot(v, k)
	}
	return v
}
func (p *closedParser) atom() *big.Float {
	switch r := p.peek(); {
	case r == '(':
		p.i++
		v := p.expr()
		p.i++
		return v
	case r == '√':
		p.i++
		return nf().Sqrt(p.num())
	default:
		v := p.num()
		if p.peek() == '√' {
			p.i++
			v = nf().Mul(v, nf().Sqrt(p.num()))
		}
		return v
	}
}
func (p *closedParser) num() *big.Float {
	j := p.i
	for p.peek() >= '0' && p.peek() <= '9' {
		p.i++
	}
	v, ok := nf().SetString(string(p.s[j:p.i]))
	if !ok {
		panic("bad number at " + string(p.s[j:]))
	}
	return v
}

// TestClosedFormsRandom: the closed form printed for every irrational root
// of random quadratics, binomials a·α^k + b and quadratics times linear
// factors (rational roots divided out) evaluates, independently, to a
// number inside the root's isolating interval refined to 2^-60.
func TestClosedFormsRandom(t *testing.T) {
	ctx := context.Background()
	var l Limits
	rng := rand.New(rand.NewSource(1))
	n, closed := 0, 0
	for it := 0; it < 600; it++ {
		var p Poly
		r := func(m int64) int64 { return rng.Int63n(2*m+1) - m }
		switch it % 3 {
		case 0:
			a := r(50)
			if a == 0 {
				a = 1
			}
			p = FromInts(r(2000), r(2000), a)
		case 1:
			k := 2 + rng.Intn(7)
			cs := make([]int64, k+1)
			cs[0] = r(100000)
			cs[k] = r(300)
			if cs[k] == 0 {
				cs[k] = 1
			}
			p = FromInts(cs...)
		case 2:
			a := r(9)
			if a == 0 {
				a = 3
			}
			p = FromInts(r(30), r(30), a).Mul(FromInts(r(5), 1+rng.Int63n(4))).Mul(FromInts(r(7), 1+rng.Int63n(3)))
		}
		if p.Degree() < 1 {
			continue
		}
		rs, err := l.Roots(ctx, p, Open(big.NewRat(-1000000, 1), big.NewRat(1000000, 1)))
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range rs {
			if x.IsRational() {
				continue
			}
			n++
			s := x.Format("a")
			if strings.HasPrefix(s, "the root") {
				continue
			}
			closed++
			v := func() (v *big.Float) {
				defer func() {
					if e := recover(); e != nil {
						t.Fatalf("%v: cannot parse %q: %v", p, s, e)
					}
				}()
				ps := &closedParser{s: []rune(s)}
				v = ps.expr()
				if ps.i != len(ps.s) {
					t.Fatalf("%v: trailing in %q", p, s)
				}
				return v
			}()
			y, err := x.Refine(ctx, big.NewRat(1, 1<<60))
			if err != nil {
				t.Fatal(err)
			}
			lo, hi := y.Bounds()
			eps := nf().SetFloat64(1e-30)
			flo := nf().Sub(nf().SetRat(lo), eps)
			fhi := nf().Add(nf().SetRat(hi), eps)
			if v.Cmp(flo) < 0 || v.Cmp(fhi) > 0 {
				t.Errorf("%v: root in [%s, %s] printed %q = %s", p.Format("a"), lo.FloatString(20), hi.FloatString(20), s, v.Text('g', 25))
			}
		}
	}
	if n < 600 || closed != n {
		t.Errorf("%d irrational roots, %d in closed form: want at least 600, all closed", n, closed)
	}
}
