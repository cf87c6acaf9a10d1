package exact

// CmpHolds reports whether the comparison op (one of = == != < <= > >=)
// holds between two values whose three-way comparison (as big.Rat.Cmp
// returns it) is c. An unknown op never holds.
func CmpHolds(op string, c int) bool {
	switch op {
	case "=", "==":
		return c == 0
	case "!=":
		return c != 0
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	case ">=":
		return c >= 0
	}
	return false
}
