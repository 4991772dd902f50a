package metric

import "unicode/utf8"

// String is a distance between strings. Dist must be safe for concurrent use.
type String interface {
	Dist(a, b string) float64
}

// StringFunc adapts an ordinary function, for instance one defined in a
// notebook cell, to the String interface, and declares that it is a metric;
// the index checks the triangle inequality while building, as for
// VectorFunc. A distance that is not a metric goes in NonMetricStringFunc.
type StringFunc func(a, b string) float64

// Dist returns f(a, b).
func (f StringFunc) Dist(a, b string) float64 { return f(a, b) }

// IsMetric returns true: wrapping a function in StringFunc declares it a
// metric.
func (f StringFunc) IsMetric() bool { return true }

// NonMetricStringFunc adapts a string dissimilarity that is not a metric;
// the index searches it by brute force.
type NonMetricStringFunc func(a, b string) float64

// Dist returns f(a, b).
func (f NonMetricStringFunc) Dist(a, b string) float64 { return f(a, b) }

// IsMetric returns false.
func (f NonMetricStringFunc) IsMetric() bool { return false }

// Hamming counts the positions (runes) at which two strings differ; when the
// lengths differ, every extra rune of the longer string counts as one
// difference, which keeps it a metric on all strings.
type Hamming struct{}

// Dist returns the Hamming distance between a and b.
func (Hamming) Dist(a, b string) float64 {
	n := 0
	for a != "" && b != "" {
		ra, sa := utf8.DecodeRuneInString(a)
		rb, sb := utf8.DecodeRuneInString(b)
		if ra != rb {
			n++
		}
		a, b = a[sa:], b[sb:]
	}
	return float64(n + utf8.RuneCountInString(a) + utf8.RuneCountInString(b))
}

// Levenshtein is the edit distance between strings: the least number of rune
// insertions, deletions and substitutions turning one into the other.
type Levenshtein struct{}

// Dist returns the Levenshtein distance between a and b.
func (Levenshtein) Dist(a, b string) float64 {
	ra, rb := []rune(a), []rune(b)
	if len(ra) < len(rb) {
		ra, rb = rb, ra
	}
	if len(rb) == 0 {
		return float64(len(ra))
	}
	row := make([]int, len(rb)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		prev := row[0] // D[i-1][j-1]
		row[0] = i
		for j := 1; j <= len(rb); j++ {
			cur := row[j] // D[i-1][j]
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			v := prev + cost
			if row[j-1]+1 < v {
				v = row[j-1] + 1
			}
			if cur+1 < v {
				v = cur + 1
			}
			row[j] = v
			prev = cur
		}
	}
	return float64(row[len(rb)])
}

// DiscreteString is the discrete metric on strings: 0 if equal, 1 otherwise.
type DiscreteString struct{}

// Dist returns 0 when a == b and 1 otherwise.
func (DiscreteString) Dist(a, b string) float64 {
	if a == b {
		return 0
	}
	return 1
}
