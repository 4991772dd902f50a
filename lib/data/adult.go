package data

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// AdultFeatures are the numeric features ReadAdult returns: the five
// numeric UCI Adult columns plus sex coded as in ACS PUMS (1 male,
// 2 female). Categorical columns are not returned.
var AdultFeatures = []string{"age", "education-num", "capital-gain", "capital-loss", "hours-per-week", "sex"}

// adultColumns is the UCI Adult column order.
var adultColumns = []string{"age", "workclass", "fnlwgt", "education", "education-num", "marital-status",
	"occupation", "relationship", "race", "sex", "capital-gain", "capital-loss", "hours-per-week",
	"native-country", "income"}

// ReadAdultFile reads a UCI Adult file (adult.data or adult.test).
func ReadAdultFile(path string) (*Dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("data: Adult: %w", err)
	}
	defer f.Close()
	return ReadAdult(f, path)
}

// ReadAdult reads the UCI Adult format from r: no header, fields
// separated by ", ", missing values "?", label "<=50K"/">50K" (with a
// trailing period in adult.test, whose first line "|1x3 Cross validator"
// is skipped). The label is 1 for >50K. name is used in error messages.
func ReadAdult(r io.Reader, name string) (*Dataset, error) {
	tab := newHeaderless(name, r, ",", adultColumns)
	if b, _ := tab.r.Peek(1); len(b) == 1 && b[0] == '|' {
		if _, err := tab.next(); err != nil {
			return nil, fmt.Errorf("data: Adult: %s: %w", name, err)
		}
	}
	pick := []int{0, 4, 10, 11, 12}
	ds := &Dataset{Names: append([]string(nil), AdultFeatures...), Target: "income>50K"}
	err := tab.each(len(adultColumns), func(line int, f [][]byte) error {
		for _, j := range pick {
			v, ok := parseNum(f[j])
			if !ok || v != v {
				return fmt.Errorf("%s:%d: column %s (field %d): invalid number %q", name, line, adultColumns[j], j+1, bytes.TrimSpace(f[j]))
			}
			ds.X = append(ds.X, v)
		}
		switch s := string(bytes.TrimSpace(f[9])); s {
		case "Male":
			ds.X = append(ds.X, 1)
		case "Female":
			ds.X = append(ds.X, 2)
		default:
			return fmt.Errorf("%s:%d: column sex (field 10): unknown value %q", name, line, s)
		}
		switch s := string(bytes.TrimSuffix(bytes.TrimSpace(f[14]), []byte("."))); s {
		case ">50K":
			ds.Y = append(ds.Y, 1)
		case "<=50K":
			ds.Y = append(ds.Y, 0)
		default:
			return fmt.Errorf("%s:%d: column income (field 15): unknown label %q", name, line, s)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ds, nil
}
