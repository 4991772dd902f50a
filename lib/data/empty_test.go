package data

import (
	"strings"
	"testing"
)

// A header-only or empty data file is an error naming the file, never a
// silent zero-row dataset.
func TestEmptyFilesAreErrors(t *testing.T) {
	task := ACSIncome(50000)
	head := strings.Join([]string{"AGEP", "COW", "SCHL", "MAR", "OCCP", "POBP", "RELP", "WKHP", "SEX", "RAC1P", "PINCP"}, ",")
	for _, c := range []struct{ body, want string }{
		{head + "\n", "header line only"},
		{head + "\n\n\n", "header line only"},
		{head, "header line only"},
		{"", "empty file"},
	} {
		_, err := task.Read(strings.NewReader(c.body), "psam_p06.csv")
		if err == nil || !strings.Contains(err.Error(), "psam_p06.csv") {
			t.Errorf("ACS %q: err = %v, want an error naming the file", c.body, err)
		}
	}
	for _, body := range []string{"", "\n\n"} {
		_, err := ReadAdult(strings.NewReader(body), "adult.data")
		if err == nil || !strings.Contains(err.Error(), "adult.data") || !strings.Contains(err.Error(), "no data rows") {
			t.Errorf("Adult %q: err = %v, want a no-data-rows error naming the file", body, err)
		}
	}
}
