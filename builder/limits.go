package builder

import (
	"fmt"
	"math"
)

// Limits bound the size of the chains the catalog builds, so that a
// parameter typo (n = 50000) is refused with a clear message instead of
// exhausting memory.
type Limits struct {
	MaxStates      int
	MaxTransitions int
}

// DefaultLimits allow the benchmarks' largest models (the truncated
// geometric mechanism at n = 2000 has 4 million transitions) with room to
// spare, and stop well below a gigabyte of transitions.
var DefaultLimits = Limits{MaxStates: 10_000_000, MaxTransitions: 10_000_000}

// A LimitError says that a model would exceed a limit.
type LimitError struct {
	Builder  string
	What     string // "states" or "transitions"
	Estimate float64
	Limit    int
	Flag     string
}

func (e *LimitError) Error() string {
	about := "about " + thousands(e.Estimate)
	if math.IsInf(e.Estimate, 0) || e.Estimate > math.MaxFloat64/2 {
		about = "more than 10^308"
	}
	return fmt.Sprintf("%s would have %s %s; the limit is %s (raise it with %s)",
		e.Builder, about, e.What, thousands(float64(e.Limit)), e.Flag)
}

func thousands(f float64) string {
	if f >= 1e15 || math.IsInf(f, 0) {
		return fmt.Sprintf("%.3g", f)
	}
	s := fmt.Sprintf("%d", int64(f))
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// CheckSize estimates the size of the chain d would build from a and
// compares it with l. It is called before Build, so nothing is allocated
// for a model that is too big.
func (d *Def) CheckSize(a *Args, l Limits) error {
	a.limits = l
	if d.Size == nil {
		return nil
	}
	states, trans := d.Size(a)
	switch {
	case states > float64(l.MaxStates):
		return &LimitError{d.Name, "states", states, l.MaxStates, "--max-states"}
	case trans > float64(l.MaxTransitions):
		return &LimitError{d.Name, "transitions", trans, l.MaxTransitions, "--max-transitions"}
	}
	return nil
}

func f(x int) float64 { return float64(x) }
