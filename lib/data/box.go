package data

import (
	"fmt"
	"math"
	"sort"
)

// Range is the closed interval [Lo, Hi] a feature can take.
type Range struct {
	Lo float64 // lower end
	Hi float64 // upper end
}

// CodeBook holds data-independent ranges of ACS PUMS and UCI Adult
// variables, taken from the ACS PUMS code book (2018/2024) and the Adult
// documentation, with N/A coded as 0 as Folktables does. Scaling into a
// box built from these ranges leaks nothing about the data, unlike a
// min–max scaling computed from the data itself.
var CodeBook = map[string]Range{
	// ACS PUMS person variables.
	"AGEP":     {0, 99},
	"SEX":      {1, 2},
	"SCHL":     {0, 24},
	"WKHP":     {0, 99},
	"PINCP":    {-19998, 4209995},
	"COW":      {0, 9},
	"MAR":      {1, 5},
	"OCCP":     {0, 9920},
	"POBP":     {0, 554},
	"RELP":     {0, 17},
	"RAC1P":    {1, 9},
	"DIS":      {1, 2},
	"ESP":      {0, 8},
	"CIT":      {1, 5},
	"MIG":      {0, 3},
	"MIL":      {0, 4},
	"ANC":      {0, 8},
	"NATIVITY": {1, 2},
	"DEAR":     {1, 2},
	"DEYE":     {1, 2},
	"DREM":     {0, 2},
	"ESR":      {0, 6},
	"ST":       {1, 72},
	"FER":      {0, 2},
	// UCI Adult numeric columns.
	"age":            {17, 90},
	"education-num":  {1, 16},
	"capital-gain":   {0, 99999},
	"capital-loss":   {0, 4356},
	"hours-per-week": {1, 99},
	"sex":            {1, 2},
}

// Box is a product of per-feature ranges used to scale features into
// [−1, 1]^d before a release (the privacy noise is calibrated to the
// box's diameter, so the box must not depend on the data).
type Box struct {
	Names  []string // feature names, in the data's order
	Ranges []Range  // range of each feature
}

// CodeBookBox returns the box of the named features from CodeBook, with
// overrides (e.g. PINCP ≤ 30 000 inside ACSPublicCoverage) taking
// precedence.
func CodeBookBox(names []string, overrides map[string]Range) (Box, error) {
	b := Box{Names: append([]string(nil), names...), Ranges: make([]Range, len(names))}
	for j, n := range names {
		r, ok := overrides[n]
		if !ok {
			r, ok = CodeBook[n]
		}
		if !ok {
			known := make([]string, 0, len(CodeBook))
			for k := range CodeBook {
				known = append(known, k)
			}
			sort.Strings(known)
			return Box{}, fmt.Errorf("data: CodeBookBox: no code-book range for feature %q (known: %v)", n, known)
		}
		b.Ranges[j] = r
	}
	return b, nil
}

// UniformBox returns the box [lo, hi] for every one of the named features.
func UniformBox(names []string, lo, hi float64) Box {
	b := Box{Names: append([]string(nil), names...), Ranges: make([]Range, len(names))}
	for j := range b.Ranges {
		b.Ranges[j] = Range{lo, hi}
	}
	return b
}

// Scale returns a copy of ds with every feature mapped affinely from its
// range in b onto [−1, 1]. A value outside its range is an error naming
// the row and feature, unless clip is true, in which case it is clipped
// to the range first. The box's names must match ds.Names.
func (b Box) Scale(ds *Dataset, clip bool) (*Dataset, error) {
	if err := ds.Validate(); err != nil {
		return nil, err
	}
	if fmt.Sprint(b.Names) != fmt.Sprint(ds.Names) {
		return nil, fmt.Errorf("data: Box.Scale: box features %v differ from data features %v", b.Names, ds.Names)
	}
	for j, r := range b.Ranges {
		if !(r.Hi > r.Lo) {
			return nil, fmt.Errorf("data: Box.Scale: feature %q has range [%v, %v], need Hi > Lo", b.Names[j], r.Lo, r.Hi)
		}
	}
	d := ds.D()
	out := &Dataset{X: make([]float64, len(ds.X)), Y: append([]float64(nil), ds.Y...), Names: append([]string(nil), ds.Names...), Target: ds.Target}
	for i := range ds.N() {
		for j, r := range b.Ranges {
			v := ds.X[i*d+j]
			if v < r.Lo || v > r.Hi || math.IsNaN(v) {
				if !clip || math.IsNaN(v) {
					return nil, fmt.Errorf("data: Box.Scale: row %d feature %q = %v outside its range [%v, %v]", i, b.Names[j], v, r.Lo, r.Hi)
				}
				v = math.Max(r.Lo, math.Min(r.Hi, v))
			}
			out.X[i*d+j] = 2*(v-r.Lo)/(r.Hi-r.Lo) - 1
		}
	}
	return out, nil
}

// Lo returns the lower corner of the scaled box, −1 in every coordinate.
func (b Box) Lo() []float64 { return fill(len(b.Ranges), -1) }

// Hi returns the upper corner of the scaled box, +1 in every coordinate.
func (b Box) Hi() []float64 { return fill(len(b.Ranges), 1) }

func fill(n int, v float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}
