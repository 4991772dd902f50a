package engine

// rtShift returns the count n of a shift as a uint64, and panics with
// Go's runtime error "negative shift amount" at pos when n is negative:
// kernel/front (rule shiftcount) routes counts of signed integer types
// through it, which the interpreter took for huge unsigned counts.
func (s *Session) rtShift(n int64, pos string) uint64 {
	if n < 0 {
		s.bounds(pos, "%s", "negative shift amount")
	}
	return uint64(n)
}
