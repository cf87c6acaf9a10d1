package dptest

// The common neighbour relations, for Mechanism.Neighbours.

// Integer is the type set of Go's integer types.
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// Within relates two integers at distance at most d: |a − b| ≤ d. For
// counts that one person changes by at most d:
//
//	Neighbours: dptest.Within(1)
func Within[T Integer](d T) func(a, b T) bool {
	return func(a, b T) bool {
		if a < b {
			a, b = b, a
		}
		diff := a - b
		return diff >= 0 && diff <= d // a signed difference that overflows is negative
	}
}

// OnePosition relates two inputs whose coordinates — coords of each, of
// the same length — differ in exactly one position, by at most d there:
// histograms or vectors of counts where one person changes one count.
// Go's generics do not range over array lengths, so coords says how to
// read an input as integers:
//
//	Neighbours: dptest.OnePosition(1, func(c [3]int) []int { return c[:] })
func OnePosition[In any](d int, coords func(In) []int) func(a, b In) bool {
	return func(a, b In) bool {
		x, y := coords(a), coords(b)
		if len(x) != len(y) {
			return false
		}
		differ := 0
		for i := range x {
			a, b := x[i], y[i]
			if a == b {
				continue
			}
			if a < b {
				a, b = b, a
			}
			differ++
			// A difference that overflows is negative.
			if diff := a - b; differ > 1 || diff < 0 || diff > d {
				return false
			}
		}
		return differ == 1
	}
}

// AddRemoveOne relates two databases, read as multisets of rows by rows,
// when one is the other with one row added: unbounded differential
// privacy, where neighbours differ by one person's presence.
//
//	Neighbours: dptest.AddRemoveOne(func(db string) []rune { return []rune(db) })
func AddRemoveOne[In any, Row comparable](rows func(In) []Row) func(a, b In) bool {
	return func(a, b In) bool {
		x, y := rows(a), rows(b)
		if len(x) < len(y) {
			x, y = y, x
		}
		if len(x) != len(y)+1 {
			return false
		}
		// x must be y with one row more: count x's rows, take away y's.
		count := make(map[Row]int, len(x))
		for _, r := range x {
			count[r]++
		}
		for _, r := range y {
			if count[r] == 0 {
				return false
			}
			count[r]--
		}
		return true
	}
}
