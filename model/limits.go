package model

import (
	"fmt"
	"math"
	"strings"

	"github.com/dpcheck/dpcheck/exact"
)

// Limits bound the size of the chains the catalog builds, so that a
// parameter typo (n = 50000, k = 1000000000) is refused with a clear
// message instead of exhausting memory. A zero (or negative) field means
// the field of DefaultLimits; see WithDefaults.
type Limits struct {
	MaxStates      int
	MaxTransitions int
	// MaxBits bounds the total size in bits (numerator plus denominator)
	// of the distinct probabilities of the chain: α^k with k = 10^6 is a
	// single transition but a million bits.
	MaxBits int64
	// MaxMemory bounds the bytes a check may hold: what a model, its
	// exploration, its pairs and its distributions are estimated to take
	// is compared with it before they are allocated, and a run that holds
	// more is stopped (dpcheck.Config watches the process's memory).
	MaxMemory int64
}

// DefaultLimits allow the benchmarks' largest models (the truncated
// geometric mechanism at n = 2000 has 4 million transitions) with room to
// spare, and stop well below a gigabyte of transitions. MaxBits, 2^32 bits
// (512 MiB of numerators and denominators), is about 6.7 times what the
// largest reference model needs (laplace_decision(alpha = 999/1000,
// k = 4000, hi = 8000): 6.4·10^8 bits) and refuses a decision whose few
// probabilities have 10^9 bits each.
//
// MaxMemory, 4 GiB, is about three times what the largest documented
// benchmark holds (the truncated geometric mechanism at n = 5000 checked
// in full) and well under the memory of the machines dpcheck runs on.
var DefaultLimits = Limits{MaxStates: 10_000_000, MaxTransitions: 10_000_000, MaxBits: 1 << 32, MaxMemory: 4 << 30}

// WithDefaults returns l with every zero (or negative) field replaced by
// the field of DefaultLimits.
func (l Limits) WithDefaults() Limits {
	if l.MaxStates <= 0 {
		l.MaxStates = DefaultLimits.MaxStates
	}
	if l.MaxTransitions <= 0 {
		l.MaxTransitions = DefaultLimits.MaxTransitions
	}
	if l.MaxBits <= 0 {
		l.MaxBits = DefaultLimits.MaxBits
	}
	if l.MaxMemory <= 0 {
		l.MaxMemory = DefaultLimits.MaxMemory
	}
	return l
}

// LimitKind names one of the Limits.
type LimitKind string

// The limits a LimitError can name.
const (
	LimitStates      LimitKind = "states"      // Limits.MaxStates
	LimitTransitions LimitKind = "transitions" // Limits.MaxTransitions
	LimitBits        LimitKind = "bits"        // Limits.MaxBits
	LimitMemory      LimitKind = "memory"      // Limits.MaxMemory
)

// Bytes writes a number of bytes for a person: "4 GiB", "1.5 GiB",
// "300 MiB", "12 KiB" or "100 bytes".
func Bytes(n int64) string {
	units := []string{"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	x, u := float64(n), 0
	for x >= 1024 && u < len(units)-1 {
		x /= 1024
		u++
	}
	if u == 0 {
		return fmt.Sprintf("%d bytes", n)
	}
	s := fmt.Sprintf("%.1f", x)
	s = strings.TrimSuffix(s, ".0")
	return s + " " + units[u]
}

// A LimitError says that a model would exceed a limit. Its message names
// the builder and the limit's value, not how to raise it: a command line
// can add its own hint from Limit.
type LimitError struct {
	Builder  string    // the builder's name, as in the catalog
	Limit    LimitKind // which limit is exceeded
	Estimate float64   // the model's estimated size, in the limit's unit
	Max      int64     // the limit
}

func (e *LimitError) Error() string {
	about := "about " + thousands(e.Estimate)
	if math.IsInf(e.Estimate, 0) || math.IsNaN(e.Estimate) || e.Estimate > math.MaxFloat64/2 {
		about = "more than 10^308"
	}
	if e.Limit == LimitMemory {
		return fmt.Sprintf("%s would need about %s of memory; the limit is %s",
			e.Builder, Bytes(int64(min(e.Estimate, math.MaxInt64/2))), Bytes(e.Max))
	}
	if e.Limit == LimitBits {
		return fmt.Sprintf("%s would need probabilities of %s bits in all; the limit is %s bits",
			e.Builder, about, thousands(float64(e.Max)))
	}
	return fmt.Sprintf("%s would have %s %s; the limit is %s %s",
		e.Builder, about, e.Limit, thousands(float64(e.Max)), e.Limit)
}

func thousands(f float64) string {
	if f >= 1e15 || math.IsInf(f, 0) {
		return fmt.Sprintf("%.3g", f)
	}
	return exact.Thousands(int64(f))
}
