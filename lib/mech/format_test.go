package mech

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/goldp/goldp/lib/internal/stattest"
	"github.com/goldp/goldp/lib/progress"
)

type describer interface {
	String() string
	Markdown() string
	Guarantee() Guarantee
}

// Every mechanism renders itself with its guarantee, in plain text and in
// Markdown with LaTeX.
func TestMechanismsDescribeThemselves(t *testing.T) {
	lap, _ := NewLaplace(2, 1, 3)
	gau, _ := NewGaussian(1, 0.5, 1e-5, Classical)
	gs, _ := GaussianFromSigma(1, 4, 1e-5)
	rr, _ := NewRandomizedResponse(1)
	grr, _ := NewGRR(4, 1)
	he, _ := NewHistogramEncoding(4, 1)
	cube, _ := NewCubeHistogram(2, 0.25, 1)
	vc, _ := NewVoronoiCell(5, 1, WithIndicators)
	flr, _ := NewFeatureLabelRelease([]float64{-1, -1}, []float64{1, 1}, 1, 1, 1e-5, Analytic)
	for _, m := range []describer{lap, gau, gs, rr, grr, he, cube, vc, flr} {
		s, md, g := m.String(), m.Markdown(), m.Guarantee()
		if err := g.Validate(); err != nil {
			t.Errorf("%T: %v", m, err)
		}
		if !strings.Contains(s, g.String()) {
			t.Errorf("%T String %q lacks its guarantee %q", m, s, g)
		}
		if !strings.Contains(md, g.Markdown()) || !strings.Contains(md, "$") {
			t.Errorf("%T Markdown %q lacks its guarantee %q", m, md, g.Markdown())
		}
	}
	if g := flr.Guarantee(); g.Epsilon != 2 || g.Delta != 1e-5 {
		t.Errorf("feature/label guarantee %v", g)
	}
	if !strings.Contains(gau.String(), "Classical") || !strings.Contains(gs.String(), "analytic privacy profile") {
		t.Errorf("calibration not shown: %v / %v", gau, gs)
	}
}

type countReporter struct {
	reports, done atomic.Int64
	last          atomic.Int64
}

func (c *countReporter) Report(done, total int64) {
	c.reports.Add(1)
	if done == total {
		c.last.Store(done)
	}
}
func (c *countReporter) Done() { c.done.Add(1) }

var _ progress.Reporter = (*countReporter)(nil)

func TestBatchProgressAndGaussianBatch(t *testing.T) {
	g, _ := NewGaussian(2, 1, 1e-5, Analytic)
	if err := g.SetDomain(Box{Lo: []float64{0, 0}, Hi: []float64{1, 1}}, Reject); err != nil {
		t.Fatal(err)
	}
	n := 5*BlockRows + 3
	x := make([]float64, 2*n)
	rng := rand.New(rand.NewPCG(1, 9))
	for i := range x {
		x[i] = rng.Float64()
	}
	rep := &countReporter{}
	a, err := g.ReleaseBatch(context.Background(), 5, x, 2, 1, rep)
	if err != nil {
		t.Fatal(err)
	}
	b, err := g.ReleaseBatch(context.Background(), 5, x, 2, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("value %d differs between 1 and 3 workers", i)
		}
	}
	if rep.done.Load() != 1 || rep.last.Load() != 6 {
		t.Errorf("progress: %d reports, done %d, last %d; want Done once and 6 of 6 blocks", rep.reports.Load(), rep.done.Load(), rep.last.Load())
	}
	x[7] = 3
	if _, err := g.ReleaseBatch(context.Background(), 5, x, 2, 1, nil); err == nil || !strings.Contains(err.Error(), "record 3") {
		t.Errorf("err = %v, want one naming record 3", err)
	}
}

func TestLaplaceBatch(t *testing.T) {
	m, _ := NewLaplace(1, 0.5, 1)
	n := 3*BlockRows + 5
	x := make([]float64, n)
	a, err := m.ReleaseBatch(context.Background(), 3, x, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := m.ReleaseBatch(context.Background(), 3, x, 2, nil)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("value %d differs between 1 and 2 workers", i)
		}
	}
	s := m.Scale()
	_, pv := stattest.KS(append([]float64(nil), a...), laplaceCDF(s))
	if pv < 1e-3 {
		t.Errorf("KS p-value %v", pv)
	}
}

// LN example at scale: 10^6 people, 30% hold the attribute, keep 0.55.
func TestRandomizedResponseBatch(t *testing.T) {
	m, _ := RandomizedResponseFromKeep(0.55)
	const n = 1000000
	y := make([]float64, n)
	for i := range y {
		y[i] = -1
		if i%10 < 3 {
			y[i] = 1
		}
	}
	a, err := m.ReleaseBatch(context.Background(), 1, y, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := m.ReleaseBatch(context.Background(), 1, y, 2, nil)
	ones := 0
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("label %d differs between 1 and 2 workers", i)
		}
		if a[i] == 1 {
			ones++
		}
	}
	est := ProportionFromMean(float64(ones)/n, 0.55)
	within(t, "LN estimator 10(X̄ − 0.45)", est, 0.3, 4*math.Sqrt(m.ProportionVariance(0.3, n)))
	within(t, "same as 10(X̄ − 0.45)", est, 10*(float64(ones)/n-0.45), 1e-12)
	y[7] = 0
	if _, err := m.ReleaseBatch(context.Background(), 1, y, 1, nil); err == nil || !strings.Contains(err.Error(), "label 7") {
		t.Errorf("err = %v", err)
	}
}

func TestFillLaplace(t *testing.T) {
	rng := rand.New(rand.NewPCG(71, 72))
	xs := make([]float64, 100003)
	FillLaplace(rng, xs, 0.7)
	_, pv := stattest.KS(xs, laplaceCDF(0.7))
	if pv < 1e-3 {
		t.Errorf("KS p-value %v", pv)
	}
}

func TestSecureRand(t *testing.T) {
	rng := SecureRand()
	m, _ := NewRandomizedResponse(1)
	keep := 0
	const n = 20000
	for i := 0; i < n; i++ {
		if y, _ := m.Release(rng, 1); y == 1 {
			keep++
		}
	}
	p := m.KeepProb()
	within(t, "keep rate from crypto/rand", float64(keep)/n, p, 4*math.Sqrt(p*(1-p)/n))
	// No seed: every SecureRand, and every real release (nil rng), draws a
	// fresh key, so two of them never repeat each other (a collision of
	// these 64-bit words, or of 16 discrete Gaussian values spread over
	// 2^14 steps each, has probability far below 2^-60).
	if a, b := SecureRand().Uint64(), SecureRand().Uint64(); a == b {
		t.Errorf("two SecureRand streams start with the same word %#x", a)
	}
	g, _ := NewGaussian(1, 1, 1e-5, Analytic)
	x := make([]float64, 16)
	r1, err1 := g.Release(nil, x)
	r2, err2 := g.Release(nil, x)
	if err1 != nil || err2 != nil || slices.Equal(r1, r2) {
		t.Errorf("two real releases of the same record agree: %v, %v (%v, %v)", r1, r2, err1, err2)
	}
}
