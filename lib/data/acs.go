package data

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
)

// ACS task kinds.
const (
	acsIncome = iota
	acsPublicCoverage
)

// ACSIncomeFeatures are the ACSIncome features of Folktables that the
// shipped 2024 PUMS projection holds, in Folktables' order (POBP and RELP
// are not in it; a full psam_p file has them and they may be added to
// ACSTask.Features).
var ACSIncomeFeatures = []string{"AGEP", "COW", "SCHL", "MAR", "OCCP", "WKHP", "SEX", "RAC1P"}

// ACSPublicCoverageFeatures are the ACSPublicCoverage features of
// Folktables present in the shipped projection (ESP and ANC are not; MIG
// is derived from MIGSP when absent), in Folktables' order.
var ACSPublicCoverageFeatures = []string{"AGEP", "SCHL", "MAR", "SEX", "DIS", "CIT", "MIG", "MIL",
	"NATIVITY", "DEAR", "DEYE", "DREM", "PINCP", "ESR", "ST", "FER", "RAC1P"}

// ACSTask is a Folktables prediction task on ACS PUMS person records: a
// row filter, a feature list and a binary target. Blank (N/A) feature
// values become 0, as Folktables' postprocessing does; rows whose filter
// variables are blank fail the filter.
type ACSTask struct {
	// Name is "ACSIncome" or "ACSPublicCoverage".
	Name string
	// Features are the PUMS columns used as features, in order. "ST" also
	// matches the 2024 header "STATE"; "MIG" is derived from "MIGSP" when
	// the file has no MIG column.
	Features []string
	// Threshold is the income cut of ACSIncome: the label is
	// PINCP > Threshold (Folktables: 50 000).
	Threshold float64
	// RegressionTarget, if not empty, names a column whose value (blank →
	// 0) becomes Y instead of the binary label, e.g. "PINCP" for income
	// regression on the ACSIncome rows (IWP paper App. E.2).
	RegressionTarget string
	kind             int
}

// ACSIncome returns the Folktables ACSIncome task: rows with AGEP > 16,
// PINCP > 100, WKHP > 0 and PWGTP >= 1; label PINCP > threshold
// (Folktables uses 50 000 on 2018 data; about 62 500 gives the 2018
// balance on 2024 data). Features default to ACSIncomeFeatures.
func ACSIncome(threshold float64) *ACSTask {
	return &ACSTask{Name: "ACSIncome", Features: append([]string(nil), ACSIncomeFeatures...), Threshold: threshold, kind: acsIncome}
}

// ACSPublicCoverage returns the Folktables ACSPublicCoverage task: rows
// with AGEP < 65 and PINCP <= 30 000; label PUBCOV == 1. Features default
// to ACSPublicCoverageFeatures.
func ACSPublicCoverage() *ACSTask {
	return &ACSTask{Name: "ACSPublicCoverage", Features: append([]string(nil), ACSPublicCoverageFeatures...), kind: acsPublicCoverage}
}

// Box returns the code-book box of the task's features (PINCP capped at
// 30 000 for ACSPublicCoverage, whose filter guarantees it).
func (t *ACSTask) Box() (Box, error) {
	var ov map[string]Range
	if t.kind == acsPublicCoverage {
		ov = map[string]Range{"PINCP": {-19998, 30000}}
	}
	return CodeBookBox(t.Features, ov)
}

// ReadFile reads ACS PUMS person CSV files (psam_pXX.csv or a projection
// of one with the same column names) and returns the task's rows, files
// concatenated in order.
func (t *ACSTask) ReadFile(paths ...string) (*Dataset, error) {
	var out *Dataset
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, fmt.Errorf("data: %s: %w", t.Name, err)
		}
		ds, err := t.Read(f, p)
		f.Close()
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = ds
		} else {
			out.X = append(out.X, ds.X...)
			out.Y = append(out.Y, ds.Y...)
		}
	}
	if out == nil {
		return nil, fmt.Errorf("data: %s: ReadFile: no paths", t.Name)
	}
	return out, nil
}

// Read reads one ACS PUMS person CSV from r; name is used in error
// messages (file:line: column ...).
func (t *ACSTask) Read(r io.Reader, name string) (*Dataset, error) {
	if len(t.Features) == 0 {
		return nil, fmt.Errorf("data: %s: no features", t.Name)
	}
	tab, err := newCSV(name, r, ",")
	if err != nil {
		return nil, err
	}
	need := func(col string) (int, error) {
		alias := []string{col}
		if col == "ST" {
			alias = append(alias, "STATE")
		}
		j := tab.col(alias...)
		if j < 0 {
			return -1, fmt.Errorf("%s:1: no column %q in the header", name, col)
		}
		return j, nil
	}
	// Columns read as numbers: features (MIG may be derived), then the
	// filter/label columns.
	type colRef struct {
		name string
		idx  int
	}
	feat := make([]int, len(t.Features)) // index into cols, or −1 for derived MIG
	var cols []colRef
	addCol := func(c string) (int, error) {
		for k, cr := range cols {
			if cr.name == c {
				return k, nil
			}
		}
		j, err := need(c)
		if err != nil {
			return -1, err
		}
		cols = append(cols, colRef{c, j})
		return len(cols) - 1, nil
	}
	migsp := -1
	for k, f := range t.Features {
		if f == "MIG" && tab.col("MIG") < 0 {
			if migsp, err = addCol("MIGSP"); err != nil {
				return nil, fmt.Errorf("%s:1: MIG is absent and cannot be derived: no column \"MIGSP\"", name)
			}
			feat[k] = -1
			continue
		}
		if feat[k], err = addCol(f); err != nil {
			return nil, err
		}
	}
	regCol := -1
	if t.RegressionTarget != "" {
		if regCol, err = addCol(t.RegressionTarget); err != nil {
			return nil, err
		}
	}
	var agep, pincp, wkhp, pwgtp, pubcov int
	if agep, err = addCol("AGEP"); err != nil {
		return nil, err
	}
	if pincp, err = addCol("PINCP"); err != nil {
		return nil, err
	}
	if t.kind == acsIncome {
		if wkhp, err = addCol("WKHP"); err != nil {
			return nil, err
		}
		if pwgtp, err = addCol("PWGTP"); err != nil {
			return nil, err
		}
	} else {
		if pubcov, err = addCol("PUBCOV"); err != nil {
			return nil, err
		}
	}
	ds := &Dataset{Names: append([]string(nil), t.Features...)}
	switch {
	case regCol >= 0:
		ds.Target = t.RegressionTarget
	case t.kind == acsIncome:
		ds.Target = fmt.Sprintf("PINCP>%g", t.Threshold)
	default:
		ds.Target = "PUBCOV==1"
	}
	vals := make([]float64, len(cols))
	nf := len(tab.header)
	err = tab.each(nf, func(line int, f [][]byte) error {
		for k, c := range cols {
			v, ok := parseNum(f[c.idx])
			if !ok {
				return fmt.Errorf("%s:%d: column %s (field %d): invalid number %q", name, line, c.name, c.idx+1, f[c.idx])
			}
			vals[k] = v
		}
		age, inc := vals[agep], vals[pincp]
		var keep bool
		var label float64
		if t.kind == acsIncome {
			keep = age > 16 && inc > 100 && vals[wkhp] > 0 && vals[pwgtp] >= 1
			if inc > t.Threshold {
				label = 1
			}
		} else {
			keep = age < 65 && inc <= 30000
			if vals[pubcov] == 1 {
				label = 1
			}
		}
		if !keep {
			return nil
		}
		for _, c := range feat {
			var v float64
			if c < 0 {
				v = deriveMIG(age, vals[migsp])
			} else {
				v = vals[c]
			}
			if math.IsNaN(v) {
				v = 0
			}
			ds.X = append(ds.X, v)
		}
		if regCol >= 0 {
			label = vals[regCol]
			if math.IsNaN(label) {
				label = 0
			}
		}
		ds.Y = append(ds.Y, label)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ds, nil
}

// deriveMIG returns the PUMS MIG code from MIGSP: N/A under age 1; 1 (same
// house) when MIGSP is blank; 3 (moved within the US or PR) for MIGSP ≤
// 72; 2 (moved from abroad) otherwise.
func deriveMIG(age, migsp float64) float64 {
	switch {
	case age < 1:
		return math.NaN()
	case math.IsNaN(migsp):
		return 1
	case migsp <= 72:
		return 3
	}
	return 2
}

// StateFIPS maps the postal abbreviations of the 50 states and Puerto Rico
// to their FIPS codes (the state list of Folktables; DC is not in it).
var StateFIPS = map[string]int{
	"AL": 1, "AK": 2, "AZ": 4, "AR": 5, "CA": 6, "CO": 8, "CT": 9, "DE": 10, "FL": 12, "GA": 13,
	"HI": 15, "ID": 16, "IL": 17, "IN": 18, "IA": 19, "KS": 20, "KY": 21, "LA": 22, "ME": 23, "MD": 24,
	"MA": 25, "MI": 26, "MN": 27, "MS": 28, "MO": 29, "MT": 30, "NE": 31, "NV": 32, "NH": 33, "NJ": 34,
	"NM": 35, "NY": 36, "NC": 37, "ND": 38, "OH": 39, "OK": 40, "OR": 41, "PA": 42, "RI": 44, "SC": 45,
	"SD": 46, "TN": 47, "TX": 48, "UT": 49, "VT": 50, "VA": 51, "WA": 53, "WV": 54, "WI": 55, "WY": 56,
	"PR": 72,
}

// FolktablesPaths returns the paths where Folktables caches the person
// files of the given states: root/year/horizon/psam_pFF.csv (FF = FIPS),
// the layout of folktables' ACSDataSource for survey years 2017 and later
// (e.g. FolktablesPaths("data", 2018, "1-Year", "CA", "TX")).
func FolktablesPaths(root string, year int, horizon string, states ...string) ([]string, error) {
	if year < 2017 {
		return nil, fmt.Errorf("data: FolktablesPaths: year %d; only 2017 and later use psam_pFF.csv names", year)
	}
	out := make([]string, len(states))
	for i, st := range states {
		f, ok := StateFIPS[st]
		if !ok {
			return nil, fmt.Errorf("data: FolktablesPaths: unknown state %q (want a postal abbreviation such as \"CA\")", st)
		}
		out[i] = filepath.Join(root, strconv.Itoa(year), horizon, fmt.Sprintf("psam_p%02d.csv", f))
	}
	return out, nil
}
