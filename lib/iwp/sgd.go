package iwp

import (
	"context"
	"fmt"
	"math"
)

// Method says what SGD trains on and which gradient it uses.
type Method int

const (
	// Clean is plain SGD on the non-private data (the reference).
	Clean Method = iota
	// Naive is plain SGD on the private release, as if it were clean; it
	// converges to a biased model.
	Naive
	// IWP is IWP-SGD on the private release: the gradient is inverted
	// through the Weierstrass and Bernoulli transforms and is unbiased.
	IWP
)

// Methods lists the three methods in their usual order.
var Methods = []Method{Clean, Naive, IWP}

// String returns the method's name as used in tables and plots.
func (m Method) String() string {
	switch m {
	case Clean:
		return "SGD-clean"
	case Naive:
		return "SGD-naive"
	case IWP:
		return "IWP-SGD"
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// Params are the hyper-parameters of single-pass mini-batch SGD
// (Algorithm 1 of the IWP paper):
//
//	θ ← Π(θ − Step·(mean batch gradient + Lambda·θ))
//
// for ⌊n/Batch⌋ batches, each example used once.
type Params struct {
	// Loss is the generalised linear loss.
	Loss Loss
	// Batch is the mini-batch size (at least 1).
	Batch int
	// Step is the constant step size γ (> 0).
	Step float64
	// Lambda is the L2 regularisation λ (the penalty is λ/2·‖θ‖², applied
	// to every coordinate, intercept included; it is data-independent so
	// IWP adds it unchanged).
	Lambda float64
	// Radius is the radius of the Euclidean ball Θ that θ is projected on
	// after each step; 0 means no projection.
	Radius float64
	// Intercept adds a last coordinate to θ that multiplies a constant 1.
	// The constant is public, so it carries no noise: the IWP correction
	// uses s = σ‖θ_{1..d}‖ over the feature coordinates only.
	Intercept bool
	// TailAverage, in [0, 1), returns the average of the iterates over the
	// last TailAverage fraction of the batches instead of the last iterate
	// (0, the default, returns the last iterate).
	TailAverage float64
	// Sigma is the standard deviation of the Gaussian feature noise of the
	// release (used by IWP only).
	Sigma float64
	// EpsY is the randomized-response budget of the labels (used by IWP
	// only); +Inf means the labels were released unchanged.
	EpsY float64
}

// Dim returns the length of θ for d features.
func (p Params) Dim(d int) int {
	if p.Intercept {
		return d + 1
	}
	return d
}

// Validate reports the first invalid parameter.
func (p Params) Validate() error {
	switch {
	case p.Batch < 1:
		return fmt.Errorf("iwp: Params.Batch = %d, need >= 1", p.Batch)
	case !(p.Step > 0) || math.IsInf(p.Step, 1):
		return fmt.Errorf("iwp: Params.Step = %v, need a finite step > 0", p.Step)
	case !(p.Lambda >= 0) || math.IsInf(p.Lambda, 1):
		return fmt.Errorf("iwp: Params.Lambda = %v, need finite lambda >= 0", p.Lambda)
	case !(p.Radius >= 0):
		return fmt.Errorf("iwp: Params.Radius = %v, need radius >= 0 (0 = no projection)", p.Radius)
	case !(p.TailAverage >= 0 && p.TailAverage < 1):
		return fmt.Errorf("iwp: Params.TailAverage = %v, need 0 <= TailAverage < 1", p.TailAverage)
	case !(p.Sigma >= 0) || math.IsInf(p.Sigma, 1):
		return fmt.Errorf("iwp: Params.Sigma = %v, need finite sigma >= 0", p.Sigma)
	case !(p.EpsY > 0):
		return fmt.Errorf("iwp: Params.EpsY = %v, need epsY > 0 (+Inf for clean labels)", p.EpsY)
	}
	if p.Loss.kind == LogisticKind && (p.Loss.k < 0 || p.Loss.k > MaxLogisticOrder) {
		return fmt.Errorf("iwp: Params.Loss: logistic order %d out of range", p.Loss.k)
	}
	return nil
}

// checkData validates the shape of a data set.
func checkData(what string, x, y []float64, d int) (n int, err error) {
	if d < 1 {
		return 0, fmt.Errorf("iwp: %s: d = %d, need d >= 1", what, d)
	}
	if len(x)%d != 0 {
		return 0, fmt.Errorf("iwp: %s: len(x) = %d is not a multiple of d = %d", what, len(x), d)
	}
	n = len(x) / d
	if len(y) != n {
		return 0, fmt.Errorf("iwp: %s: len(y) = %d, want n = %d rows", what, len(y), n)
	}
	return n, nil
}

// SGD runs single-pass mini-batch SGD with method m on the n×d row-major
// features x and labels y (±1), starting from theta0 (nil = zeros; length
// p.Dim(d)). For Clean and Naive it uses the plain gradient (the caller
// passes clean data or the release); for IWP the IWP gradient with
// p.Sigma and p.EpsY. It returns the last iterate, or the tail average
// when p.TailAverage > 0.
func SGD(ctx context.Context, p Params, m Method, x, y []float64, d int, theta0 []float64) ([]float64, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if _, err := checkData("SGD", x, y, d); err != nil {
		return nil, err
	}
	tr := newTrainer(p, d)
	if theta0 != nil {
		if len(theta0) != len(tr.theta) {
			return nil, fmt.Errorf("iwp: SGD: len(theta0) = %d, want %d", len(theta0), len(tr.theta))
		}
		copy(tr.theta, theta0)
	}
	if err := tr.run(ctx, m, x, y, 0, nil); err != nil {
		return nil, err
	}
	return tr.result(), nil
}

// trainer holds the state of one SGD run; it allocates once and is
// reused across runs. A pass is begun with begin and fed its rows, whole
// batches at a time, by one or more calls of steps, so that a caller can
// train on a release as it is produced, block by block.
type trainer struct {
	p     Params
	d     int
	theta []float64
	grad  []float64
	avg   []float64
	buf   []float64 // per-batch scratch (exponents, exponentials)
	navg  int
	la    float64 // log of the label weights
	lb    float64
	a, b  float64

	// The pass: batches done (t) out of nb, the first batch of the tail
	// average, the batch count of the next call of check, every `every`
	// batches (0: never).
	t, nb, tailStart, nextCheck, every int
	check                              func(batch int, theta []float64)
}

func newTrainer(p Params, d int) *trainer {
	k := p.Dim(d)
	tr := &trainer{p: p, d: d, theta: make([]float64, k), grad: make([]float64, k), avg: make([]float64, k), buf: make([]float64, max(p.Batch, 1))}
	tr.a, tr.b = labelWeights(p.EpsY)
	tr.la, tr.lb = math.Log(tr.a), math.Log(tr.b)
	return tr
}

func (tr *trainer) reset() {
	clear(tr.theta)
	clear(tr.avg)
	tr.navg = 0
}

func (tr *trainer) result() []float64 {
	if tr.navg > 0 {
		out := make([]float64, len(tr.avg))
		for j, v := range tr.avg {
			out[j] = v / float64(tr.navg)
		}
		return out
	}
	return append([]float64(nil), tr.theta...)
}

// ctxCheckEvery is how many batches run between context checks.
const ctxCheckEvery = 256

// run does one pass over n = len(y) rows. If every > 0, check is called
// with the batch count after every `every` batches (and after the last
// one).
func (tr *trainer) run(ctx context.Context, m Method, x, y []float64, every int, check func(batch int, theta []float64)) error {
	tr.begin(len(y), every, check)
	return tr.steps(ctx, m, x, y)
}

// begin starts a pass of ⌊n/Batch⌋ batches over n rows; steps then runs
// them. check and every are as in run.
func (tr *trainer) begin(n, every int, check func(batch int, theta []float64)) {
	p := tr.p
	tr.nb = n / p.Batch
	tr.tailStart = tr.nb
	if p.TailAverage > 0 {
		tr.tailStart = tr.nb - int(math.Ceil(p.TailAverage*float64(tr.nb)))
	}
	tr.t = 0
	tr.every, tr.check, tr.nextCheck = every, check, every
}

// steps runs the next batches of the pass begun by begin on the rows of x
// and y, the pass's next rows: every whole batch among them, up to the
// pass's last batch (a partial batch at the end is the caller's to pass
// again with the rows that follow it).
func (tr *trainer) steps(ctx context.Context, m Method, x, y []float64) error {
	p, d := tr.p, tr.d
	grad := tr.grad
	for lo := 0; lo+p.Batch <= len(y) && tr.t < tr.nb; lo += p.Batch {
		t := tr.t
		if t%ctxCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		xb := x[lo*d : (lo+p.Batch)*d]
		yb := y[lo : lo+p.Batch]
		var sumB float64
		clear(grad)
		if m == IWP {
			sumB = tr.iwpBatch(xb, yb)
		} else {
			tr.plainBatch(xb, yb)
		}
		tr.update(sumB)
	}
	return nil
}

// update takes the step of batch tr.t with the gradient sum in tr.grad and,
// for IWP, the sum of the B_i, then does the batch's tail averaging and
// trajectory check.
func (tr *trainer) update(sumB float64) {
	p, d := tr.p, tr.d
	theta, grad := tr.theta, tr.grad
	thf := theta[:d] // feature coordinates
	inv := 1 / float64(p.Batch)
	// θ ← θ − γ(grad/B − σ²·θ_f·ΣB/B + λθ)
	g, lam := p.Step, p.Lambda
	cb := p.Sigma * p.Sigma * sumB * inv
	var nrm float64
	for j := range theta {
		gj := grad[j]*inv + lam*theta[j]
		if j < d {
			gj -= cb * thf[j]
		}
		theta[j] -= g * gj
		nrm += theta[j] * theta[j]
	}
	if p.Radius > 0 && nrm > p.Radius*p.Radius {
		f := p.Radius / math.Sqrt(nrm)
		for j := range theta {
			theta[j] *= f
		}
	}
	t := tr.t
	if t >= tr.tailStart {
		for j, v := range theta {
			tr.avg[j] += v
		}
		tr.navg++
	}
	tr.t = t + 1
	if tr.check != nil && tr.every > 0 && (t+1 == tr.nextCheck || t == tr.nb-1) {
		tr.check(t+1, theta)
		tr.nextCheck += tr.every
	}
}

// plainBatch adds Σ φ′(u_i, y_i)·x_i into tr.grad.
func (tr *trainer) plainBatch(xb, yb []float64) {
	d := tr.d
	theta, grad := tr.theta, tr.grad
	icpt := 0.0
	if tr.p.Intercept {
		icpt = theta[d]
	}
	kind := tr.p.Loss.kind
	hasIcpt := tr.p.Intercept
	th, gr := theta[:d:d], grad[:d:d]
	if kind == ExponentialKind {
		// The exponents −y_i·u_i first, then all exponentials in one loop,
		// then the gradient Σ −y_i·e^{−y_i u_i}·x_i: the exponentials
		// pipeline without a call each.
		buf := tr.buf[:len(yb)]
		marginsY(xb, th, yb, icpt, -1, 0, d, buf)
		expInPlace(buf)
		gi := accumulateY(xb, buf, yb, -1, d, gr)
		if hasIcpt {
			grad[d] += gi
		}
		return
	}
	for i, y := range yb {
		xi := xb[i*d : i*d+d : i*d+d]
		u := icpt
		for j, v := range xi {
			u += th[j] * v
		}
		c := 2 * (u - y)
		if kind == LogisticKind {
			c = -y * sigmoid(-y*u)
		}
		for j, v := range xi {
			gr[j] += c * v
		}
		if hasIcpt {
			grad[d] += c
		}
	}
}

// iwpBatch adds Σ A_i·x̃_i into tr.grad and returns Σ B_i.
func (tr *trainer) iwpBatch(xb, yb []float64) float64 {
	d := tr.d
	theta, grad := tr.theta, tr.grad
	icpt := 0.0
	if tr.p.Intercept {
		icpt = theta[d]
	}
	var n2 float64
	for _, v := range theta[:d] {
		n2 += v * v
	}
	h := tr.p.Sigma * tr.p.Sigma * n2 / 2
	l := tr.p.Loss
	var sumB float64
	hasIcpt := tr.p.Intercept
	th, gr := theta[:d:d], grad[:d:d]
	la, lb := tr.la, tr.lb
	if l.kind == ExponentialKind {
		// e1 = exp(la − m − h) and e2 = exp(lb + m − h), m = y·u: the
		// exponents are combined before exponentiating; e2 for all rows in
		// one batched loop, then e1 = c/e2 with c = exp(la + lb − 2h)
		// where e2 is moderate (else e1 gets its own exp).
		c := fastexp(la + lb - 2*h)
		buf := tr.buf[:len(yb)]
		marginsY(xb, th, yb, icpt, 1, lb-h, d, buf)
		expInPlace(buf)
		sumB = iwpWeights(buf, xb, yb, th, icpt, c, la, h)
		gi := accumulateY(xb, buf, yb, -1, d, gr)
		if hasIcpt {
			grad[d] += gi
		}
		return sumB
	}
	for i, y := range yb {
		xi := xb[i*d : i*d+d : i*d+d]
		u := icpt
		for j, v := range xi {
			u += th[j] * v
		}
		A, B := l.iwpCoef(u, y, h, la, lb, tr.a, tr.b)
		for j, v := range xi {
			gr[j] += A * v
		}
		if hasIcpt {
			grad[d] += A
		}
		sumB += B
	}
	return sumB
}

// iwpWeights turns e2_i = exp(lb + y_i·u_i − h) in buf into the IWP
// weights e1_i + e2_i of the exponential loss (A_i = −y_i·(e1_i + e2_i)),
// with e1_i = exp(la − y_i·u_i − h) = c/e2_i, c = exp(la + lb − 2h), and
// returns Σ B_i = Σ (e1_i − e2_i).
func iwpWeights(buf, xb, yb, th []float64, icpt, c, la, h float64) (sumB float64) {
	d := len(th)
	for i, e2 := range buf {
		var e1 float64
		// |x2| < 299: c/e2 is accurate (c = e^{la+lb−2h} may underflow
		// only when e1 is negligible beside e2).
		if e2 > 1e-130 && e2 < 1e130 {
			e1 = c / e2
		} else {
			e1 = fastexp(la - yb[i]*margin(xb[i*d:i*d+d], th, icpt) - h)
		}
		buf[i] = e1 + e2 // A_i = −y_i·(e1 + e2)
		sumB += e1 - e2
	}
	return sumB
}

// pairSteps runs the next batches of two passes begun with begin on the
// same rows (x, y), naive SGD with tn and IWP-SGD with tw, exponential loss
// and d = 4 features, batch by batch together: the two models' margins are
// computed in one loop over each batch, which reads the
// rows once for both (marginsY2). Each model's arithmetic is
// that of steps, so the results are the same bit for bit.
func pairSteps(ctx context.Context, tn, tw *trainer, x, y []float64) error {
	p := tn.p
	for lo := 0; lo+p.Batch <= len(y) && tn.t < tn.nb && tw.t < tw.nb; lo += p.Batch {
		if tn.t%ctxCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		xb := x[lo*4 : (lo+p.Batch)*4]
		yb := y[lo : lo+p.Batch]
		var icn, icw float64
		if p.Intercept {
			icn, icw = tn.theta[4], tw.theta[4]
		}
		thn, thw := tn.theta[:4:4], tw.theta[:4:4]
		var n2 float64
		for _, v := range thw {
			n2 += v * v
		}
		h := tw.p.Sigma * tw.p.Sigma * n2 / 2
		c := fastexp(tw.la + tw.lb - 2*h)
		bn, bw := tn.buf[:len(yb)], tw.buf[:len(yb)]
		marginsY2(xb, yb, (*[4]float64)(thn), icn, bn, (*[4]float64)(thw), icw, tw.lb-h, bw)
		expInPlace(bn)
		expInPlace(bw)
		sumB := iwpWeights(bw, xb, yb, thw, icw, c, tw.la, h)
		clear(tn.grad)
		clear(tw.grad)
		gn := accumulateY(xb, bn, yb, -1, 4, tn.grad[:4:4])
		gw := accumulateY(xb, bw, yb, -1, 4, tw.grad[:4:4])
		if p.Intercept {
			tn.grad[4] += gn
			tw.grad[4] += gw
		}
		tn.update(0)
		tw.update(sumB)
	}
	return nil
}

// Evaluate returns the mean loss and the accuracy (share of rows where the
// sign of ⟨θ,x⟩, with 0 counted as +1, equals y) of θ on the n×d clean
// features x and labels y (±1). theta has length d, or d+1 when its last
// coordinate is an intercept.
func Evaluate(l Loss, theta, x, y []float64, d int) (risk, acc float64, err error) {
	n, err := checkData("Evaluate", x, y, d)
	if err != nil {
		return 0, 0, err
	}
	if len(theta) != d && len(theta) != d+1 {
		return 0, 0, fmt.Errorf("iwp: Evaluate: len(theta) = %d, want d = %d or d+1", len(theta), d)
	}
	if n == 0 {
		return 0, 0, fmt.Errorf("iwp: Evaluate: no rows")
	}
	r, a := evaluate(l, theta, x, y, d)
	return r, a, nil
}

func evaluate(l Loss, theta, x, y []float64, d int) (risk, acc float64) {
	sr, ok := evalSums(l, theta, x, y, d)
	n := float64(len(y))
	return sr / n, ok / n
}

// evalSums returns Σ_i φ(u_i, y_i) and the number of rows with
// sign(u_i) = y_i (0 counted as +1), u_i = ⟨θ, x_i⟩ (+ intercept).
func evalSums(l Loss, theta, x, y []float64, d int) (loss, okRows float64) {
	icpt := 0.0
	if len(theta) > d {
		icpt = theta[d]
	}
	th := theta[:d:d]
	var sr, ok float64
	if l.kind == ExponentialKind {
		var buf [256]float64
		for lo := 0; lo < len(y); lo += len(buf) {
			yc := y[lo:min(lo+len(buf), len(y))]
			b := buf[:len(yc)]
			margins(x[lo*d:], th, icpt, d, b)
			for k, yi := range yc {
				u := b[k]
				ok += hit(u, yi)
				b[k] = -yi * u
			}
			expInPlace(b)
			for _, v := range b {
				sr += v
			}
		}
		return sr, ok
	}
	for i, yi := range y {
		xi := x[i*d : i*d+d]
		u := icpt
		for j, v := range xi {
			u += th[j] * v
		}
		sr += l.Value(u, yi)
		ok += hit(u, yi)
	}
	return sr, ok
}
