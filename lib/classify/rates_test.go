package classify

import (
	"context"
	"math"
	"strings"
	"testing"
)

// TestRateStudy fits the log-log slope of excess risk against nα² for both
// private rules on the Lipschitz toy (κ = 1: β = 1, γ = 1) in d = 1 and
// checks it against the theory slope.
func TestRateStudy(t *testing.T) {
	for _, method := range []string{"bb", "protonn"} {
		cfg := RateConfig{Method: method, Problem: Problem{D: 1, Kappa: 1}, Alpha: 1,
			N: []int{4000, 16000, 64000, 256000, 1024000}, Reps: 12, TestN: 20000, Seed: 1}
		res, err := RateStudy(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("\n%s", res)
		if math.Abs(res.Fit.Slope-res.Theory) > 0.15 {
			t.Errorf("%s: fitted slope %.3f, theory %.3f", method, res.Fit.Slope, res.Theory)
		}
	}
	if _, err := RateStudy(context.Background(), RateConfig{Method: "x", Problem: Problem{D: 1, Kappa: 1}, Alpha: 1, N: []int{10, 20}}); err == nil {
		t.Error("unknown method accepted")
	}
}

func TestRateStudyCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := RateStudy(ctx, RateConfig{Method: "bb", Problem: Problem{D: 2, Kappa: 1}, Alpha: 1, N: []int{1000, 2000}, Reps: 3})
	if err == nil {
		t.Error("cancelled study returned no error")
	}
}

func TestMarkdown(t *testing.T) {
	res, err := RateStudy(context.Background(), RateConfig{Method: "bb", Problem: Problem{D: 1, Kappa: 1}, Alpha: 1, N: []int{1000, 4000}, Reps: 2, TestN: 1000})
	if err != nil {
		t.Fatal(err)
	}
	md := res.Markdown()
	if !strings.Contains(md, "| 4000 |") || !strings.Contains(md, "theory slope **-0.500**") {
		t.Errorf("Markdown:\n%s", md)
	}
	pub, _ := ProtoNNFromCells([]int{0, 1}, 2, []int{1, -1}, nil)
	if !strings.Contains(pub.Markdown(), "no privacy") {
		t.Errorf("public Markdown: %s", pub.Markdown())
	}
}
