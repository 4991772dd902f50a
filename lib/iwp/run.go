package iwp

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"

	"gonum.org/v1/gonum/stat"

	"github.com/goldp/goldp/lib/internal/blockrng"
	"github.com/goldp/goldp/lib/internal/parallel"
	"github.com/goldp/goldp/lib/progress"
	"gonum.org/v1/gonum/stat/distuv"
)

// Experiment compares clean SGD, naive SGD on the release and IWP-SGD over
// repeated noise draws (the paper's Figures 1, 2 and 4). Each repetition
// draws a fresh release of the training data (and, with Shuffle, a fresh
// row order shared by the three methods) from seeds derived from Seed and
// the repetition index, so results do not depend on Workers.
//
// Work that does not depend on the draw is done once: without Shuffle the
// clean run is the same in every repetition and is trained once, and the
// test rows are evaluated through their distinct values with multiplicities
// (coded features repeat rows; the mean loss is the same weighted sum).
type Experiment struct {
	// Params are the SGD hyper-parameters. Sigma and EpsY are overwritten
	// from Release.
	Params Params
	// Release draws the private training data.
	Release Releaser
	// Methods to run (nil = Clean, Naive, IWP).
	Methods []Method
	// Reps is the number of repetitions (noise draws), at least 1.
	Reps int
	// Seed derives every repetition's seeds.
	Seed uint64
	// Workers is the number of repetitions run in parallel (<= 0 means
	// GOMAXPROCS).
	Workers int
	// Points is the number of trajectory points, evenly spaced in batches
	// with the last at the end of the pass; 0 or 1 records only the final
	// model.
	Points int
	// Every, if positive, records a trajectory point every Every batches
	// (and at the end) instead of Points evenly spaced ones.
	Every int
	// TrajTest caps the test rows used for the trajectory points (the
	// first TrajTest rows; 0 = all). The final models are also evaluated
	// on the whole test set (Curve.TestRisk, Curve.TestAcc).
	TrajTest int
	// Shuffle draws a new order of the training rows in every repetition.
	Shuffle bool
	// Progress, if not nil, receives the number of finished runs
	// (repetitions × methods).
	Progress progress.Reporter
}

// Curve holds one method's results over the repetitions.
type Curve struct {
	// Method is the method the curve belongs to.
	Method Method
	// Risk and Acc are the test risk (mean loss) and accuracy on the
	// trajectory test rows, indexed [rep][point]; points are at
	// Result.Batches, the last one being the final model.
	Risk, Acc [][]float64
	// TestRisk and TestAcc are the risk and accuracy of each repetition's
	// final model on the whole test set.
	TestRisk, TestAcc []float64
	// Theta is the final model of each repetition.
	Theta [][]float64
	// AvgTheta is the average of the final models over the repetitions.
	AvgTheta []float64
	// AvgRisk and AvgAcc are the risk and accuracy of AvgTheta on the
	// whole test set.
	AvgRisk, AvgAcc float64
	// AvgTrajRisk and AvgTrajAcc are those of AvgTheta on the trajectory
	// test rows (comparable with the last trajectory point).
	AvgTrajRisk, AvgTrajAcc float64
}

// Result is the outcome of Experiment.Run.
type Result struct {
	// Batches are the batch counts at the trajectory points; the last one
	// is the end of the pass.
	Batches []int
	// Curves has one entry per method, in the order of Experiment.Methods.
	Curves []*Curve
	// Sigma and EpsY are the release's noise levels.
	Sigma, EpsY float64
	// Warnings lists numerical concerns (e.g. the logistic series'
	// variance blowing up at the noise level reached).
	Warnings []string
}

// Run trains every method on every repetition and evaluates the models on
// the clean test set. x and xTest are n×d and m×d row-major; y and yTest
// hold ±1 labels.
func (e *Experiment) Run(ctx context.Context, x, y, xTest, yTest []float64, d int) (*Result, error) {
	if e.Release == nil {
		return nil, fmt.Errorf("iwp: Experiment.Release is nil")
	}
	if e.Reps < 1 {
		return nil, fmt.Errorf("iwp: Experiment.Reps = %d, need >= 1", e.Reps)
	}
	if e.Points < 0 || e.TrajTest < 0 || e.Every < 0 {
		return nil, fmt.Errorf("iwp: Experiment: Points = %d, Every = %d, TrajTest = %d, need >= 0", e.Points, e.Every, e.TrajTest)
	}
	p := e.Params
	p.Sigma = e.Release.Sigma()
	kp := e.Release.KeepProb()
	p.EpsY = math.Log(kp / (1 - kp))
	if err := p.Validate(); err != nil {
		return nil, err
	}
	n, err := checkData("Experiment.Run (train)", x, y, d)
	if err != nil {
		return nil, err
	}
	m, err := checkData("Experiment.Run (test)", xTest, yTest, d)
	if err != nil {
		return nil, err
	}
	if m == 0 || n < p.Batch {
		return nil, fmt.Errorf("iwp: Experiment.Run: %d training rows (batch %d) and %d test rows; need at least one batch and one test row", n, p.Batch, m)
	}
	methods := e.Methods
	if methods == nil {
		methods = Methods
	}
	nb := n / p.Batch
	every := 0
	var batches []int
	if e.Every > 0 {
		every = e.Every
	} else if e.Points > 0 {
		every = max(1, nb/e.Points)
	}
	if every > 0 {
		for b := every; b < nb; b += every {
			batches = append(batches, b)
		}
	}
	batches = append(batches, nb)
	np := len(batches)
	tm := m
	if e.TrajTest > 0 && e.TrajTest < m {
		tm = e.TrajTest
	}
	ts := newTestSet(xTest, yTest, d, tm)

	res := &Result{Batches: batches, Sigma: p.Sigma, EpsY: p.EpsY}
	for _, meth := range methods {
		c := &Curve{Method: meth, Risk: make([][]float64, e.Reps), Acc: make([][]float64, e.Reps), Theta: make([][]float64, e.Reps),
			TestRisk: make([]float64, e.Reps), TestAcc: make([]float64, e.Reps)}
		for r := range e.Reps {
			c.Risk[r] = make([]float64, np)
			c.Acc[r] = make([]float64, np)
		}
		res.Curves = append(res.Curves, c)
	}

	total := int64(e.Reps * len(methods))
	var done atomic.Int64
	defer progress.Finish(e.Progress)

	// startPass begins a pass of method k of repetition r on n rows with
	// tr, recording the trajectory points; endPass records the final model
	// and its test results.
	startPass := func(tr *trainer, k, r, n int) {
		c := res.Curves[k]
		pt := 0
		tr.reset()
		tr.begin(n, every, func(b int, theta []float64) {
			if b == nb || pt >= np-1 {
				return
			}
			c.Risk[r][pt], c.Acc[r][pt] = ts.evalTraj(p.Loss, theta, d)
			pt++
		})
	}
	endPass := func(tr *trainer, k, r int) {
		c := res.Curves[k]
		th := tr.result()
		c.Theta[r] = th
		c.Risk[r][np-1], c.Acc[r][np-1], c.TestRisk[r], c.TestAcc[r] = ts.evalBoth(p.Loss, th, d)
		progress.Report(e.Progress, done.Add(1), total)
	}
	// trainEval runs method k of repetition r on (dx, dy) with tr.
	trainEval := func(ctx context.Context, tr *trainer, k, r int, dx, dy []float64) error {
		startPass(tr, k, r, len(dy))
		if err := tr.steps(ctx, methods[k], dx, dy); err != nil {
			return err
		}
		endPass(tr, k, r)
		return nil
	}

	// Without Shuffle the clean run is the same in every repetition (same
	// rows, same order, no noise): it is trained once, as the pool's first
	// job (so that it runs beside the first draw), and copied afterwards.
	cleanOnce, first := -1, 0
	if !e.Shuffle {
		cleanOnce = slices.Index(methods, Clean)
	}
	if cleanOnce >= 0 {
		first = 1
	}
	var noisy []int // the methods trained on the release
	for k, meth := range methods {
		if meth != Clean {
			noisy = append(noisy, k)
		}
	}
	blocks, byBlock := e.Release.(BlockReleaser)
	err = parallel.ForWorkers(ctx, first+e.Reps, e.Workers, func() func(context.Context, int) error {
		trs := make([]*trainer, len(methods))
		for k := range trs {
			trs[k] = newTrainer(p, d)
		}
		var xs, ys []float64
		if e.Shuffle {
			xs, ys = make([]float64, len(x)), make([]float64, n)
		}
		into, canInto := e.Release.(ReleaserInto)
		var xbuf, ybuf []float64
		if byBlock {
			xbuf, ybuf = make([]float64, (blockrng.Rows+p.Batch)*d), make([]float64, blockrng.Rows+p.Batch)
		}
		return func(ctx context.Context, job int) error {
			if job < first {
				return trainEval(ctx, trs[cleanOnce], cleanOnce, 0, x, y)
			}
			r := job - first
			xr, yr := x, y
			if e.Shuffle {
				rng := rand.New(rand.NewPCG(blockrng.SplitMix64(e.Seed^0x5eed), blockrng.SplitMix64(uint64(r)<<1)))
				perm := rng.Perm(n)
				for i, pi := range perm {
					dst, src := xs[i*d:i*d+d], x[pi*d:pi*d+d]
					for j := range dst {
						dst[j] = src[j]
					}
					ys[i] = y[pi]
				}
				xr, yr = xs, ys
			}
			for k, meth := range methods {
				if meth == Clean && k != cleanOnce {
					if err := trainEval(ctx, trs[k], k, r, xr, yr); err != nil {
						return err
					}
				}
			}
			if len(noisy) == 0 {
				return nil
			}
			seed := blockrng.SplitMix64(e.Seed + uint64(r)*0x9e3779b97f4a7c15 + 1)
			if byBlock {
				return fusedPass(ctx, blocks, seed, xr, yr, d, p.Batch, xbuf, ybuf, noisy, trs, methods, func(k int) { startPass(trs[k], k, r, n) },
					func(k int) { endPass(trs[k], k, r) }, r)
			}
			var xt, yt []float64
			var err error
			if canInto {
				if xbuf == nil {
					xbuf, ybuf = make([]float64, len(x)), make([]float64, n)
				}
				err = into.ReleaseInto(ctx, seed, xr, yr, xbuf, ybuf, 1)
				xt, yt = xbuf, ybuf
			} else {
				xt, yt, err = e.Release.Release(ctx, seed, xr, yr, 1)
			}
			if err != nil {
				return fmt.Errorf("iwp: repetition %d: release: %w", r, err)
			}
			if len(xt) != len(xr) || len(yt) != len(yr) {
				return fmt.Errorf("iwp: repetition %d: release returned %d features and %d labels, want %d and %d", r, len(xt), len(yt), len(xr), len(yr))
			}
			for _, k := range noisy {
				if err := trainEval(ctx, trs[k], k, r, xt, yt); err != nil {
					return err
				}
			}
			return nil
		}
	})
	if err != nil {
		return nil, err
	}
	if k := cleanOnce; k >= 0 {
		c := res.Curves[k]
		for r := 1; r < e.Reps; r++ {
			copy(c.Risk[r], c.Risk[0])
			copy(c.Acc[r], c.Acc[0])
			c.Theta[r] = slices.Clone(c.Theta[0])
			c.TestRisk[r], c.TestAcc[r] = c.TestRisk[0], c.TestAcc[0]
			progress.Report(e.Progress, done.Add(1), total)
		}
	}
	for _, c := range res.Curves {
		c.AvgTheta = make([]float64, p.Dim(d))
		for _, th := range c.Theta {
			for j, v := range th {
				c.AvgTheta[j] += v / float64(e.Reps)
			}
		}
		c.AvgTrajRisk, c.AvgTrajAcc, c.AvgRisk, c.AvgAcc = ts.evalBoth(p.Loss, c.AvgTheta, d)
		if ref := res.Curve(Clean); c.Method == IWP && ref != nil {
			if w := divergenceWarning(c, ref, p.Sigma, d); w != "" {
				res.Warnings = append(res.Warnings, w)
			}
		}
		if c.Method == IWP && p.Loss.kind == LogisticKind && p.Loss.k > 0 {
			var mx float64
			for _, th := range c.Theta {
				_, n2 := dotNorm(th[:d], th[:d])
				mx = max(mx, n2)
			}
			if w := logisticWarning(p.Loss.k, p.Sigma*math.Sqrt(mx)); w != "" {
				res.Warnings = append(res.Warnings, w)
			}
		}
	}
	return res, nil
}

// fusedRows is about how many rows (whole batches) each method trains on
// in turn when the methods share a block of the release: 512 rows of four
// features and a label take 20 KB, which stay in the L1 cache between the
// methods.
const fusedRows = 512

// fusedPass trains the methods noisy (indices into methods, trainers trs)
// of repetition r on the release of (x, y) drawn block by block: each block
// of blockrng.Rows records is released into xbuf, ybuf behind the rows
// left over from the previous block (fewer than a batch), and every method
// takes the block's whole batches, a few at a time, before the next block
// is drawn. The release and the batches are those of a release of the
// whole set followed by one pass per method, so the results are too; the
// release is never written out in full (21 MB in E-C2) and read back once
// per method. start and end begin and close each method's pass.
func fusedPass(ctx context.Context, rel BlockReleaser, seed uint64, x, y []float64, d, batch int, xbuf, ybuf []float64,
	noisy []int, trs []*trainer, methods []Method, start, end func(k int), r int) error {
	n := len(y)
	for _, k := range noisy {
		start(k)
	}
	sub := max(1, fusedRows/batch) * batch
	// Naive and IWP with the exponential loss on four features (E-C2's
	// setting) train together, batch by batch (pairSteps).
	kn, kw := -1, -1
	if len(noisy) == 2 && d == 4 && trs[noisy[0]].p.Loss.kind == ExponentialKind {
		a, b := noisy[0], noisy[1]
		if methods[a] == IWP {
			a, b = b, a
		}
		if methods[a] == Naive && methods[b] == IWP {
			kn, kw = a, b
		}
	}
	have := 0 // rows carried over from the previous block
	for b := 0; b*blockrng.Rows < n; b++ {
		r0, r1 := b*blockrng.Rows, min((b+1)*blockrng.Rows, n)
		tot := have + r1 - r0
		if err := rel.ReleaseBlock(seed, b, x[r0*d:r1*d], y[r0:r1], xbuf[have*d:tot*d], ybuf[have:tot]); err != nil {
			return fmt.Errorf("iwp: repetition %d: release: %w", r, err)
		}
		full := tot / batch * batch
		for lo := 0; lo < full; lo += sub {
			hi := min(lo+sub, full)
			if kn >= 0 {
				if err := pairSteps(ctx, trs[kn], trs[kw], xbuf[lo*d:hi*d], ybuf[lo:hi]); err != nil {
					return err
				}
				continue
			}
			for _, k := range noisy {
				if err := trs[k].steps(ctx, methods[k], xbuf[lo*d:hi*d], ybuf[lo:hi]); err != nil {
					return err
				}
			}
		}
		have = copy(ybuf, ybuf[full:tot])
		copy(xbuf, xbuf[full*d:tot*d])
	}
	for _, k := range noisy {
		end(k)
	}
	return nil
}

// divergenceWarning reports IWP repetitions whose final test risk exceeds
// twice clean SGD's mean (an unstable run: the IWP gradient's variance
// grows like exp(σ²‖θ‖²) for the exponential loss, so a large σ with a
// large step or projection radius can throw θ far away).
func divergenceWarning(c, ref *Curve, sigma float64, d int) string {
	mr, _ := MeanSD(ref.TestRisk)
	bad := 0
	var worst float64
	for r, v := range c.TestRisk {
		if !(v <= 2*mr) {
			bad++
			_, n2 := dotNorm(c.Theta[r][:d], c.Theta[r][:d])
			worst = max(worst, sigma*math.Sqrt(n2))
		}
	}
	if bad == 0 {
		return ""
	}
	return fmt.Sprintf("%v: %d of %d repetitions ended with a test risk above twice clean SGD's mean %.4g (σ‖θ‖ up to %.3g); "+
		"the run is unstable at this noise level: lower Step or Radius, or raise the budget", c.Method, bad, len(c.TestRisk), mr, worst)
}

// logisticWarning returns a warning when the truncated logistic estimator
// of order k at noise level s has more than twice the spread of the
// uncorrected one.
func logisticWarning(k int, s float64) string {
	_, sd0, err0 := TruncationStats(s, 0, 0)
	_, sdk, errk := TruncationStats(s, 0, k)
	if err0 != nil || errk != nil || sd0 == 0 {
		return ""
	}
	if sdk > 2*sd0 {
		return fmt.Sprintf("logistic series of order K=%d at s=σ‖θ‖=%.3g: estimator std %.3g is %.1f× the uncorrected %.3g; the variance blows up, use a lower K",
			k, s, sdk, sdk/sd0, sd0)
	}
	return ""
}

// Curve returns the curve of method m, or nil if it was not run.
func (r *Result) Curve(m Method) *Curve {
	for _, c := range r.Curves {
		if c.Method == m {
			return c
		}
	}
	return nil
}

// FinalRisk returns the risk of each repetition's final model on the
// whole test set.
func (c *Curve) FinalRisk() []float64 { return append([]float64(nil), c.TestRisk...) }

// FinalAcc returns the accuracy of each repetition's final model on the
// whole test set.
func (c *Curve) FinalAcc() []float64 { return append([]float64(nil), c.TestAcc...) }

// RiskBand returns, per trajectory point, the mean test risk over the
// repetitions and its standard deviation.
func (c *Curve) RiskBand() (mean, sd []float64) { return band(c.Risk) }

// AccBand returns, per trajectory point, the mean test accuracy over the
// repetitions and its standard deviation.
func (c *Curve) AccBand() (mean, sd []float64) { return band(c.Acc) }

func column(a [][]float64, j int) []float64 {
	out := make([]float64, len(a))
	for i, row := range a {
		k := j
		if k < 0 {
			k = len(row) + j
		}
		out[i] = row[k]
	}
	return out
}

func band(a [][]float64) (mean, sd []float64) {
	if len(a) == 0 {
		return nil, nil
	}
	np := len(a[0])
	mean, sd = make([]float64, np), make([]float64, np)
	for j := range np {
		mean[j], sd[j] = MeanSD(column(a, j))
	}
	return mean, sd
}

// MeanSD returns the sample mean and the sample standard deviation (n−1
// denominator; 0 for fewer than two values, NaN for none), from gonum's
// stat.MeanStdDev.
func MeanSD(v []float64) (mean, sd float64) {
	switch len(v) {
	case 0:
		return math.NaN(), math.NaN()
	case 1:
		return v[0], 0
	}
	return stat.MeanStdDev(v, nil)
}

// Welch returns Welch's two-sample t statistic for mean(a) − mean(b), its
// degrees of freedom (Welch–Satterthwaite) and the two-sided p-value.
// Each sample needs at least two values. When both samples have zero
// spread, t is 0 (p = 1) for equal means and ±Inf (p = 0) otherwise.
func Welch(a, b []float64) (t, df, p float64, err error) {
	if len(a) < 2 || len(b) < 2 {
		return 0, 0, 0, fmt.Errorf("iwp: Welch: sample sizes %d and %d, need at least 2 each", len(a), len(b))
	}
	ma, sa := MeanSD(a)
	mb, sb := MeanSD(b)
	va, vb := sa*sa/float64(len(a)), sb*sb/float64(len(b))
	se := math.Sqrt(va + vb)
	if se == 0 {
		if ma == mb {
			return 0, math.Inf(1), 1, nil
		}
		return math.Copysign(math.Inf(1), ma-mb), math.Inf(1), 0, nil
	}
	t = (ma - mb) / se
	df = (va + vb) * (va + vb) / (va*va/float64(len(a)-1) + vb*vb/float64(len(b)-1))
	st := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}
	p = 2 * st.CDF(-math.Abs(t))
	return t, df, p, nil
}

// Table returns a plain-text table of the final test risk and accuracy per
// method (mean, standard error over the repetitions), the risk and
// accuracy of the averaged model, and Welch's test of each method's final
// risk against the clean reference (t and two-sided p).
func (r *Result) Table() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%-10s %12s %10s %9s %9s %11s %9s %9s %10s\n",
		"method", "risk mean", "risk se", "acc mean", "acc se", "avg-model", "avg acc", "t vs clean", "p")
	ref := r.Curve(Clean)
	for _, c := range r.Curves {
		fr, fa := c.FinalRisk(), c.FinalAcc()
		mr, sr := MeanSD(fr)
		ma, sa := MeanSD(fa)
		k := math.Sqrt(float64(len(fr)))
		ts, ps := "-", "-"
		if ref != nil && c != ref && len(fr) >= 2 {
			if t, _, p, err := Welch(fr, ref.FinalRisk()); err == nil {
				ts, ps = fmt.Sprintf("%.2f", t), fmt.Sprintf("%.3g", p)
			}
		}
		fmt.Fprintf(&sb, "%-10s %12.6f %10.2e %9.4f %9.2e %11.6f %9.4f %9s %10s\n",
			c.Method, mr, sr/k, ma, sa/k, c.AvgRisk, c.AvgAcc, ts, ps)
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(&sb, "warning: %s\n", w)
	}
	return sb.String()
}

// PValue returns the two-sided p-value of Welch's test comparing the final
// test risk of method m with that of Clean over the repetitions (small:
// the method's risk differs from clean SGD's).
func (r *Result) PValue(m Method) (float64, error) {
	c, ref := r.Curve(m), r.Curve(Clean)
	if c == nil || ref == nil {
		return 0, fmt.Errorf("iwp: PValue: result has no %v or no %v curve", m, Clean)
	}
	_, _, p, err := Welch(c.FinalRisk(), ref.FinalRisk())
	return p, err
}

// Summary returns one line stating whether IWP-SGD's final test risk is
// statistically indistinguishable from clean SGD's and whether naive
// SGD's differs, at the given significance level (e.g. 0.01).
func (r *Result) Summary(level float64) string {
	pi, err1 := r.PValue(IWP)
	pn, err2 := r.PValue(Naive)
	if err1 != nil || err2 != nil {
		return "summary needs the Clean, Naive and IWP curves with at least 2 repetitions"
	}
	verdict := func(p float64) string {
		if p < level {
			return "differs"
		}
		return "indistinguishable"
	}
	return fmt.Sprintf("final test risk vs clean SGD (Welch, level %g): IWP-SGD %s (p = %.3g), naive SGD %s (p = %.3g)",
		level, verdict(pi), pi, verdict(pn), pn)
}
