package iwpbench

import (
	"context"
	"os"
	"testing"

	"github.com/goldp/goldp/lib/data"
	"github.com/goldp/goldp/lib/iwp"
)

func checkClaim(t *testing.T, res *iwp.Result) {
	t.Helper()
	t.Logf("σ = %.4g, ε_Y = %.3g\n%s%s", res.Sigma, res.EpsY, res.Table(), res.Summary(0.01))
	pi, err := res.PValue(iwp.IWP)
	if err != nil {
		t.Fatal(err)
	}
	pn, _ := res.PValue(iwp.Naive)
	if pn > 1e-4 {
		t.Errorf("naive SGD's final risk does not differ from clean SGD's: p = %v", pn)
	}
	if pi < 1e-3 {
		t.Errorf("IWP-SGD's final risk differs from clean SGD's: p = %v", pi)
	}
}

// E-C1 reduced: d = 2, ε = 5, 200,000 rows, 30 noise draws.
func TestEC1Reduced(t *testing.T) {
	for _, c := range []struct {
		d   int
		eps float64
	}{{2, 5}, {10, 5}} {
		s, err := EC1(200000, c.d, c.eps, 1)
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Run(context.Background(), 30, 0)
		if err != nil {
			t.Fatal(err)
		}
		checkClaim(t, res)
	}
}

// E-C2 on the real 2024 ACS sample of FL, IL, NY and PA (skipped when
// absent): ACSIncome on AGEP, SEX, SCHL, WKHP and ACSPublicCoverage on
// AGEP, SEX, SCHL, PINCP.
func TestEC2RealACS(t *testing.T) {
	path := "../../../shared/data/acs_pums_2024_1yr/psam_fl_il_ny_pa_2024_hh20pct.csv"
	if _, err := os.Stat(path); err != nil {
		t.Skipf("real ACS sample absent: %v", err)
	}
	inc := data.ACSIncome(50000)
	inc.Features = []string{"AGEP", "SEX", "SCHL", "WKHP"}
	pub := data.ACSPublicCoverage()
	pub.Features = []string{"AGEP", "SEX", "SCHL", "PINCP"}
	for _, task := range []*data.ACSTask{inc, pub} {
		ds, err := task.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		box, err := task.Box()
		if err != nil {
			t.Fatal(err)
		}
		s, err := EC2(ds, box, 5, 3)
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Run(context.Background(), 30, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d rows", task.Name, ds.N())
		checkClaim(t, res)
	}
}
