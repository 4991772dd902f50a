package iwp

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// C16: end-to-end IWP-SGD toy.
func TestC16Toy(t *testing.T) {
	n := 400000
	rng := rand.New(rand.NewPCG(16, 16))
	x := make([]float64, n)
	y := make([]float64, n)
	for i := range y {
		y[i] = 1
		if rng.IntN(2) == 0 {
			y[i] = -1
		}
		x[i] = 0.5 * y[i]
	}
	rel, err := NewNoiseRelease(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	xt, yt, err := rel.Release(context.Background(), 99, x, y, 2)
	if err != nil {
		t.Fatal(err)
	}
	p := Params{Loss: Exponential(), Batch: 1, Step: 0.005, Lambda: 1, Radius: 2, TailAverage: 0.5, Sigma: 1, EpsY: 1}
	ctx := context.Background()
	clean, err := SGD(ctx, p, Clean, x, y, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	naive, err := SGD(ctx, p, Naive, xt, yt, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	iwp, err := SGD(ctx, p, IWP, xt, yt, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("clean %.4f naive %.4f iwp %.4f", clean[0], naive[0], iwp[0])
	if math.Abs(clean[0]-0.407777) > 0.01 {
		t.Errorf("clean SGD θ = %v, want ≈0.4078", clean[0])
	}
	if math.Abs(iwp[0]-0.407777) >= 0.02 {
		t.Errorf("IWP-SGD θ = %v, want within 0.02 of 0.407777", iwp[0])
	}
	if math.Abs(naive[0]-0.1041) >= 0.02 {
		t.Errorf("naive SGD θ = %v, want within 0.02 of 0.1041", naive[0])
	}
}

// The release is reproducible whatever the number of workers and has the
// stated noise.
func TestNoiseRelease(t *testing.T) {
	n, d := 30000, 3
	x := make([]float64, n*d)
	y := make([]float64, n)
	for i := range y {
		y[i] = 1
	}
	r, _ := NewNoiseRelease(2, 1)
	ctx := context.Background()
	a, ay, _ := r.Release(ctx, 5, x, y, 1)
	b, by, _ := r.Release(ctx, 5, x, y, 3)
	if !reflect.DeepEqual(a, b) || !reflect.DeepEqual(ay, by) {
		t.Fatal("release differs with the number of workers")
	}
	m, sd := MeanSD(a)
	if math.Abs(m) > 4*2/math.Sqrt(float64(n*d)) || math.Abs(sd-2) > 0.03 {
		t.Errorf("noise mean %v sd %v, want 0 and 2", m, sd)
	}
	kept := 0
	for _, v := range ay {
		if v == 1 {
			kept++
		}
	}
	p := keepProb(1)
	se := math.Sqrt(p * (1 - p) / float64(n))
	if f := float64(kept) / float64(n); math.Abs(f-p) > 4*se {
		t.Errorf("kept share %v, want %v", f, p)
	}
	if _, err := NewNoiseRelease(-1, 1); err == nil {
		t.Error("negative sigma accepted")
	}
	// Labels go through mech's exact randomized response (the 53-bit
	// comparison it replaces never flipped above ε ≈ 37): a label that is
	// not ±1 is refused, naming it.
	bad := append([]float64(nil), y...)
	bad[7] = 0
	if _, _, err := r.Release(ctx, 5, x, bad, 1); err == nil || !strings.Contains(err.Error(), "label 7 = 0") {
		t.Errorf("label 0: err = %v, want it named", err)
	}
}

// synthGLM draws a linearly separable-ish problem in [-1,1]^d.
func synthGLM(n, d int, seed uint64) (x, y []float64) {
	rng := rand.New(rand.NewPCG(seed, 3))
	w := []float64{1.5, -1, 0.5, 2, -0.5}
	x = make([]float64, n*d)
	y = make([]float64, n)
	for i := range n {
		u := 0.0
		for j := range d {
			v := 2*rng.Float64() - 1
			x[i*d+j] = v
			u += w[j%len(w)] * v
		}
		y[i] = -1
		if rng.Float64() < 1/(1+math.Exp(-2*u)) {
			y[i] = 1
		}
	}
	return x, y
}

// The experiment driver: reproducible whatever Workers, IWP's final risk
// is statistically indistinguishable from clean SGD's and naive SGD's is not.
func TestExperiment(t *testing.T) {
	d := 2
	x, y := synthGLM(60000, d, 1)
	xte, yte := synthGLM(20000, d, 2)
	rel, _ := NewNoiseRelease(0.7, 1.5)
	e := &Experiment{
		Params:  Params{Loss: Exponential(), Batch: 10, Step: 0.01, Lambda: 0.1, Radius: 5, Intercept: true},
		Release: rel, Reps: 12, Seed: 7, Workers: 1, Points: 5, TrajTest: 3000, Shuffle: true,
	}
	ctx := context.Background()
	r1, err := e.Run(ctx, x, y, xte, yte, d)
	if err != nil {
		t.Fatal(err)
	}
	e.Workers = 3
	r3, err := e.Run(ctx, x, y, xte, yte, d)
	if err != nil {
		t.Fatal(err)
	}
	for k := range r1.Curves {
		if !reflect.DeepEqual(r1.Curves[k].Risk, r3.Curves[k].Risk) || !reflect.DeepEqual(r1.Curves[k].Theta, r3.Curves[k].Theta) {
			t.Fatalf("%v: results differ between 1 and 3 workers", r1.Curves[k].Method)
		}
	}
	t.Logf("\n%s", r1.Table())
	if got := len(r1.Batches); got != 5 || r1.Batches[4] != 6000 {
		t.Errorf("Batches = %v, want 1200, 2400, ..., 6000", r1.Batches)
	}
	clean := r1.Curve(Clean).FinalRisk()
	_, _, pIWP, _ := Welch(r1.Curve(IWP).FinalRisk(), clean)
	_, _, pNaive, _ := Welch(r1.Curve(Naive).FinalRisk(), clean)
	if pNaive > 1e-4 {
		t.Errorf("naive vs clean p = %v, want a clear difference", pNaive)
	}
	if pIWP < 1e-3 {
		t.Errorf("IWP vs clean p = %v, want no clear difference", pIWP)
	}
	// Cancellation.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := e.Run(cctx, x, y, xte, yte, d); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled run: err = %v, want context.Canceled", err)
	}
}

func TestParamsValidate(t *testing.T) {
	good := Params{Loss: Exponential(), Batch: 1, Step: 0.1, EpsY: 1}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	bad := []Params{
		{Loss: Exponential(), Batch: 0, Step: 0.1, EpsY: 1},
		{Loss: Exponential(), Batch: 1, Step: 0, EpsY: 1},
		{Loss: Exponential(), Batch: 1, Step: 0.1, EpsY: 0},
		{Loss: Exponential(), Batch: 1, Step: 0.1, EpsY: 1, TailAverage: 1},
		{Loss: Exponential(), Batch: 1, Step: 0.1, EpsY: 1, Radius: -1},
	}
	for i, p := range bad {
		if err := p.Validate(); err == nil {
			t.Errorf("case %d: %+v accepted", i, p)
		}
	}
	if _, err := SGD(context.Background(), good, IWP, make([]float64, 5), make([]float64, 2), 2, nil); err == nil {
		t.Error("mismatched shapes accepted")
	}
}

func TestWelch(t *testing.T) {
	a := []float64{1, 2, 3, 4, 5}
	b := []float64{2, 3, 4, 5, 6}
	tt, df, p, err := Welch(a, b)
	if err != nil {
		t.Fatal(err)
	}
	// Equal variances 2.5: t = −1/sqrt(1) = −1, df = 8, p = 0.3466.
	if !near(tt, -1, 1e-12) || !near(df, 8, 1e-12) || !near(p, 0.34659350, 1e-6) {
		t.Errorf("Welch = %v, %v, %v, want -1, 8, 0.3466", tt, df, p)
	}
}

// plainRelease hides NoiseRelease's ReleaseInto so Experiment takes the
// allocating path.
type plainRelease struct{ r *NoiseRelease }

func (p plainRelease) Sigma() float64    { return p.r.Sigma() }
func (p plainRelease) KeepProb() float64 { return p.r.KeepProb() }
func (p plainRelease) Release(ctx context.Context, seed uint64, x, y []float64, w int) ([]float64, []float64, error) {
	return p.r.Release(ctx, seed, x, y, w)
}

// intoRelease hides NoiseRelease's ReleaseBlock so Experiment releases the
// whole set into buffers and trains on it afterwards.
type intoRelease struct{ plainRelease }

func (p intoRelease) ReleaseInto(ctx context.Context, seed uint64, x, y, xt, yt []float64, w int) error {
	return p.r.ReleaseInto(ctx, seed, x, y, xt, yt, w)
}

// The three release paths of Experiment give the same results, bit for
// bit: block by block with the methods trained on each block as it is
// drawn (NoiseRelease is a BlockReleaser; at d = 4 naive and IWP train
// together, pairSteps), the whole release into reused
// buffers (ReleaserInto), and Release. 10,000 rows make two full blocks
// and a partial one; batches of 7 straddle the block boundaries (4096 =
// 585·7 + 1); with and without shuffling, tail averaging and an
// intercept.
func TestExperimentReleasePaths(t *testing.T) {
	for _, d := range []int{3, 4} {
		testReleasePaths(t, d)
	}
}

func testReleasePaths(t *testing.T, d int) {
	x, y := synthGLM(10000, d, 4)
	xte, yte := synthGLM(1000, d, 5)
	rel, _ := NewNoiseRelease(0.5, 2)
	for _, shuffle := range []bool{false, true} {
		e := &Experiment{Params: Params{Loss: Exponential(), Batch: 7, Step: 0.01, Lambda: 0.1, Intercept: shuffle, TailAverage: 0.25},
			Release: rel, Reps: 3, Seed: 3, Workers: 2, Points: 9, Shuffle: shuffle}
		var res []*Result
		for _, r := range []Releaser{rel, intoRelease{plainRelease{rel}}, plainRelease{rel}} {
			e.Release = r
			got, err := e.Run(context.Background(), x, y, xte, yte, d)
			if err != nil {
				t.Fatal(err)
			}
			res = append(res, got)
		}
		for i, b := range res[1:] {
			for k, c := range res[0].Curves {
				o := b.Curves[k]
				if !reflect.DeepEqual(c.Theta, o.Theta) || !reflect.DeepEqual(c.TestRisk, o.TestRisk) ||
					!reflect.DeepEqual(c.Risk, o.Risk) || !reflect.DeepEqual(c.Acc, o.Acc) {
					t.Fatalf("d = %d, shuffle %v: %v differs between the block path and path %d", d, shuffle, c.Method, i+1)
				}
			}
		}
	}
}

// NoiseRelease.ReleaseBlock gives block b of Release, checks its labels
// (naming the record in the whole set) and refuses bad shapes.
func TestNoiseReleaseBlock(t *testing.T) {
	x, y := synthGLM(5000, 2, 6)
	rel, _ := NewNoiseRelease(0.7, 1)
	xt, yt, err := rel.Release(context.Background(), 9, x, y, 2)
	if err != nil {
		t.Fatal(err)
	}
	const rows = 4096
	xb, yb := make([]float64, 2*(5000-rows)), make([]float64, 5000-rows)
	if err := rel.ReleaseBlock(9, 1, x[2*rows:], y[rows:], xb, yb); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(xb, xt[2*rows:]) || !reflect.DeepEqual(yb, yt[rows:]) {
		t.Fatal("block 1 differs from Release's records 4096 on")
	}
	y2 := append([]float64(nil), y[rows:]...)
	y2[3] = 0.5
	if err := rel.ReleaseBlock(9, 1, x[2*rows:], y2, xb, yb); err == nil || !strings.Contains(err.Error(), "label 4099") {
		t.Errorf("bad label: err = %v, want it to name label 4099", err)
	}
	if err := rel.ReleaseBlock(9, 0, x[:2*4097], y[:4097], make([]float64, 2*4097), make([]float64, 4097)); err == nil {
		t.Error("a block of 4097 records was accepted")
	}
}

// Regression variant (§6.9): with noisy features and target, naive least
// squares is attenuated, IWP-SGD's final risk matches clean SGD's.
func TestRegressionExperiment(t *testing.T) {
	d := 2
	rng := rand.New(rand.NewPCG(8, 8))
	gen := func(n int) (x, y []float64) {
		x, y = make([]float64, n*d), make([]float64, n)
		for i := range n {
			a, b := 2*rng.Float64()-1, 2*rng.Float64()-1
			x[i*d], x[i*d+1] = a, b
			y[i] = 1.5*a - 0.8*b + 0.3 + 0.2*rng.NormFloat64()
		}
		return
	}
	x, y := gen(40000)
	xte, yte := gen(10000)
	rel, err := NewRegressionRelease(0.6, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	e := &Experiment{Params: Params{Loss: Quadratic(), Batch: 10, Step: 0.005, Lambda: 0.001, Radius: 10, Intercept: true, TailAverage: 0.5},
		Release: rel, Reps: 12, Seed: 1, Shuffle: true}
	res, err := e.Run(context.Background(), x, y, xte, yte, d)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", res.Table())
	if !math.IsInf(res.EpsY, 1) {
		t.Errorf("EpsY = %v, want +Inf for a regression release", res.EpsY)
	}
	// The IWP iterates carry more variance (E-C5: "converges to SGD-real's
	// model with larger variance"), so compare the averaged models.
	cl, iw, nv := res.Curve(Clean).AvgRisk, res.Curve(IWP).AvgRisk, res.Curve(Naive).AvgRisk
	if math.Abs(iw-cl) > 0.01*cl {
		t.Errorf("averaged IWP model risk %v, clean %v: want within 1%%", iw, cl)
	}
	if nv < 5*cl {
		t.Errorf("averaged naive model risk %v, clean %v: want the attenuation bias", nv, cl)
	}
	if pn, _ := res.PValue(Naive); pn > 1e-4 {
		t.Errorf("naive vs clean p = %v, want small", pn)
	}
}

// IWP-SGD with the truncated logistic loss: close to clean SGD at small
// noise, and a warning when the series' variance blows up.
func TestLogisticExperiment(t *testing.T) {
	d := 2
	x, y := synthGLM(40000, d, 6)
	xte, yte := synthGLM(10000, d, 7)
	l, _ := Logistic(2)
	rel, _ := NewNoiseRelease(0.5, 2)
	e := &Experiment{Params: Params{Loss: l, Batch: 10, Step: 0.05, Lambda: 0.01, Radius: 5},
		Release: rel, Reps: 10, Seed: 2, Shuffle: true}
	res, err := e.Run(context.Background(), x, y, xte, yte, d)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", res.Table())
	pi, _ := res.PValue(IWP)
	pn, _ := res.PValue(Naive)
	if pn > 1e-4 || pi < 1e-3 {
		t.Errorf("p-values: IWP %v (want large), naive %v (want small)", pi, pn)
	}
	if len(res.Warnings) != 0 {
		t.Errorf("unexpected warnings at small noise: %v", res.Warnings)
	}
	if w := logisticWarning(6, 2.5); w == "" {
		t.Error("no warning for K=6 at s=2.5")
	}
	if w := logisticWarning(2, 0.5); w != "" {
		t.Errorf("warning at s=0.5, K=2: %s", w)
	}
}

// A pass allocates nothing per step.
func TestSGDAllocFree(t *testing.T) {
	d := 4
	x, y := synthGLM(2000, d, 9)
	lg, _ := Logistic(3)
	for _, l := range []Loss{Exponential(), Quadratic(), lg} {
		p := Params{Loss: l, Batch: 8, Step: 0.01, Lambda: 0.1, Radius: 2, Intercept: true, Sigma: 0.5, EpsY: 1, TailAverage: 0.3}
		tr := newTrainer(p, d)
		for _, m := range Methods {
			allocs := testing.AllocsPerRun(5, func() {
				tr.reset()
				if err := tr.run(context.Background(), m, x, y, 0, nil); err != nil {
					t.Fatal(err)
				}
			})
			if allocs != 0 {
				t.Errorf("%v %v: %v allocations per pass, want 0", l, m, allocs)
			}
		}
	}
}

type countReporter struct {
	mu          sync.Mutex
	last, total int64
	calls, done int
}

func (c *countReporter) Report(done, total int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls++
	c.last = max(c.last, done)
	c.total = total
}

func (c *countReporter) Done() { c.mu.Lock(); c.done++; c.mu.Unlock() }

func TestExperimentProgress(t *testing.T) {
	d := 2
	x, y := synthGLM(3000, d, 10)
	rel, _ := NewNoiseRelease(0.3, 1)
	rep := &countReporter{}
	e := &Experiment{Params: Params{Loss: Exponential(), Batch: 10, Step: 0.01}, Release: rel, Reps: 5, Workers: 2, Progress: rep}
	if _, err := e.Run(context.Background(), x, y, x[:200*d], y[:200], d); err != nil {
		t.Fatal(err)
	}
	if rep.last != 15 || rep.total != 15 || rep.calls != 15 || rep.done != 1 {
		t.Errorf("progress: last %d total %d calls %d done %d, want 15, 15, 15, 1", rep.last, rep.total, rep.calls, rep.done)
	}
}

// An unstable IWP run (huge noise, large step and radius) is flagged.
func TestDivergenceWarning(t *testing.T) {
	d := 2
	x, y := synthGLM(20000, d, 11)
	rel, _ := NewNoiseRelease(8, 1)
	e := &Experiment{Params: Params{Loss: Exponential(), Batch: 4, Step: 0.5, Radius: 10}, Release: rel, Reps: 4, Seed: 1}
	res, err := e.Run(context.Background(), x, y, x[:2000*d], y[:2000], d)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range res.Warnings {
		if strings.HasPrefix(w, "IWP-SGD:") {
			found = true
		}
	}
	if !found {
		t.Errorf("no divergence warning; warnings %q, IWP risks %v", res.Warnings, res.Curve(IWP).TestRisk)
	}
}

func TestExperimentEvery(t *testing.T) {
	d := 2
	x, y := synthGLM(1000, d, 12)
	rel, _ := NewNoiseRelease(0.3, 1)
	e := &Experiment{Params: Params{Loss: Exponential(), Batch: 10, Step: 0.01}, Release: rel, Reps: 2, Every: 30}
	res, err := e.Run(context.Background(), x, y, x, y, d)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{30, 60, 90, 100}; !reflect.DeepEqual(res.Batches, want) {
		t.Errorf("Batches = %v, want %v", res.Batches, want)
	}
	if got := len(res.Curve(IWP).Risk[1]); got != 4 {
		t.Errorf("%d trajectory points, want 4", got)
	}
}
