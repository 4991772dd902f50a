package iwp

import (
	"math"
	"math/rand/v2"
	"testing"
)

// mcRelease draws n releases of (x, y) with Gaussian feature noise sigma
// and randomized response epsY and returns the mean and standard error of
// f(xt, yt) and of each gradient component from g.
func mcRelease(n int, seed uint64, x []float64, y, sigma, epsY float64,
	f func(xt []float64, yt float64) float64,
	g func(xt []float64, yt float64, grad []float64)) (mean, se float64, gm, gse []float64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	d := len(x)
	xt := make([]float64, d)
	grad := make([]float64, d)
	gs, gs2 := make([]float64, d), make([]float64, d)
	p := keepProb(epsY)
	var s, s2 float64
	for range n {
		for j := range x {
			xt[j] = x[j] + sigma*rng.NormFloat64()
		}
		yt := y
		if rng.Float64() >= p {
			yt = -y
		}
		v := f(xt, yt)
		s += v
		s2 += v * v
		if g != nil {
			g(xt, yt, grad)
			for j, v := range grad {
				gs[j] += v
				gs2[j] += v * v
			}
		}
	}
	fn := float64(n)
	mean = s / fn
	se = math.Sqrt((s2/fn - mean*mean) / fn)
	gm, gse = make([]float64, d), make([]float64, d)
	for j := range gs {
		gm[j] = gs[j] / fn
		gse[j] = math.Sqrt((gs2[j]/fn - gm[j]*gm[j]) / fn)
	}
	return
}

var (
	c11theta = []float64{0.3, -0.2}
	c11x     = []float64{0.5, -1.0}
)

// mcIWP averages l's IWP loss and gradient at theta over n releases of
// the record (c11x, y = 1) with feature noise sigma and label budget eps.
func mcIWP(l Loss, theta []float64, n int, seed uint64, sigma, eps float64) (mean, se float64, gm, gse []float64) {
	return mcRelease(n, seed, c11x, 1, sigma, eps,
		func(xt []float64, yt float64) float64 { return l.IWPLoss(theta, xt, yt, sigma, eps) },
		func(xt []float64, yt float64, g []float64) { l.IWPGrad(theta, xt, yt, sigma, eps, g) })
}

// mcNaive averages l's naive loss at theta over n releases of (c11x, 1)
// with σ = 1, ε = 1: the biased estimate the IWP loss corrects.
func mcNaive(l Loss, theta []float64, n int, seed uint64) (mean, se float64) {
	mean, se, _, _ = mcRelease(n, seed, c11x, 1, 1, 1,
		func(xt []float64, yt float64) float64 { return l.NaiveLoss(theta, xt, yt) }, nil)
	return mean, se
}

// C11: IWP exponential loss is unbiased for the loss and the gradient;
// the naive loss is biased.
func TestC11Exponential(t *testing.T) {
	l := Exponential()
	if v := l.NaiveLoss(c11theta, c11x, 1); !near(v, 0.70468809, 1e-8) {
		t.Fatalf("true loss %v, want 0.70468809", v)
	}
	n := 1000000
	mean, se, gm, gse := mcIWP(l, c11theta, n, 11, 1, 1)
	if !near(mean, 0.70468809, 4*se) {
		t.Errorf("E IWP loss = %v ± %v, want 0.70468809", mean, se)
	}
	varHat := se * se * float64(n)
	if !near(varHat, 1.08412393, 0.05) {
		t.Errorf("Var IWP loss = %v, want 1.08412393", varHat)
	}
	wantG := []float64{-0.35234404, 0.70468809}
	wantV := []float64{6.34376290, 9.60565903}
	for j := range wantG {
		if !near(gm[j], wantG[j], 4*gse[j]) {
			t.Errorf("E IWP grad[%d] = %v ± %v, want %v", j, gm[j], gse[j], wantG[j])
		}
		if v := gse[j] * gse[j] * float64(n); !near(v, wantV[j], 0.05*wantV[j]) {
			t.Errorf("Var IWP grad[%d] = %v, want %v", j, v, wantV[j])
		}
	}
	nm, nse := mcNaive(l, c11theta, n, 12)
	if !near(nm, 0.95704349, 4*nse) {
		t.Errorf("E naive loss = %v ± %v, want 0.95704349", nm, nse)
	}
	// The gradient from IWPCoef matches a finite difference of IWPLoss.
	xt, yt := []float64{0.9, -2.1}, -1.0
	g := make([]float64, 2)
	for _, loss := range []Loss{Exponential(), Quadratic(), mustLogistic(t, 3)} {
		loss.IWPGrad(c11theta, xt, yt, 0.8, 1.5, g)
		for j := range g {
			tp := append([]float64(nil), c11theta...)
			tm := append([]float64(nil), c11theta...)
			tp[j] += 1e-6
			tm[j] -= 1e-6
			fd := (loss.IWPLoss(tp, xt, yt, 0.8, 1.5) - loss.IWPLoss(tm, xt, yt, 0.8, 1.5)) / 2e-6
			if !near(fd, g[j], 1e-6*(1+math.Abs(fd))) {
				t.Errorf("%v: grad[%d] = %v, finite difference %v", loss, j, g[j], fd)
			}
		}
	}
}

func mustLogistic(t testing.TB, k int) Loss {
	l, err := Logistic(k)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// C12: IWP quadratic loss.
func TestC12Quadratic(t *testing.T) {
	l := Quadratic()
	if v := l.NaiveLoss(c11theta, c11x, 1); !near(v, 0.4225, 1e-12) {
		t.Fatalf("true loss %v, want 0.4225", v)
	}
	n := 1000000
	mean, se, gm, gse := mcIWP(l, c11theta, n, 21, 1, 1)
	if !near(mean, 0.4225, 4*se) {
		t.Errorf("E IWP loss = %v ± %v, want 0.4225", mean, se)
	}
	if v := se * se * float64(n); !near(v, 3.973, 0.1) {
		t.Errorf("Var IWP loss = %v, want ≈3.973", v)
	}
	tg := make([]float64, 2)
	l.NaiveGrad(c11theta, c11x, 1, tg)
	for j := range tg {
		if !near(gm[j], tg[j], 4*gse[j]) {
			t.Errorf("E IWP grad[%d] = %v ± %v, want %v", j, gm[j], gse[j], tg[j])
		}
	}
	nm, nse := mcNaive(l, c11theta, n, 22)
	if !near(nm, 0.92901799, 4*nse) {
		t.Errorf("E naive loss = %v ± %v, want 0.92901799", nm, nse)
	}
	// Closed form of the spec: (u − c ỹ)² + 1 − c² − σ²‖θ‖².
	xt, yt := []float64{1.2, 0.4}, -1.0
	c := 1 / math.Tanh(0.5)
	u := 0.3*1.2 - 0.2*0.4
	want := (u-c*yt)*(u-c*yt) + 1 - c*c - 0.13
	if v := l.IWPLoss(c11theta, xt, yt, 1, 1); !near(v, want, 1e-12) {
		t.Errorf("IWP quadratic = %v, want %v", v, want)
	}
}

// Regression variant (§6.9): unbiased gradient with a noisy continuous target.
func TestRegressionUnbiased(t *testing.T) {
	theta := []float64{0.7, -0.4, 0.2}
	x := []float64{0.3, 0.9, -0.5}
	y, sigma, tau := 1.7, 0.8, 0.5
	rng := rand.New(rand.NewPCG(5, 5))
	xt := make([]float64, 3)
	g := make([]float64, 3)
	n := 400000
	var s, s2 [3]float64
	var ls, ls2 float64
	for range n {
		for j := range x {
			xt[j] = x[j] + sigma*rng.NormFloat64()
		}
		yt := y + tau*rng.NormFloat64()
		RegressionGrad(theta, xt, yt, sigma, g)
		for j := range g {
			s[j] += g[j]
			s2[j] += g[j] * g[j]
		}
		v := RegressionLoss(theta, xt, yt, sigma, tau)
		ls += v
		ls2 += v * v
	}
	u, _ := dotNorm(theta, x)
	for j := range g {
		m := s[j] / float64(n)
		se := math.Sqrt((s2[j]/float64(n) - m*m) / float64(n))
		if want := 2 * (u - y) * x[j]; !near(m, want, 4*se) {
			t.Errorf("E grad[%d] = %v ± %v, want %v", j, m, se, want)
		}
	}
	m := ls / float64(n)
	se := math.Sqrt((ls2/float64(n) - m*m) / float64(n))
	if want := (u - y) * (u - y); !near(m, want, 4*se) {
		t.Errorf("E loss = %v ± %v, want %v", m, se, want)
	}
}

// C13: logistic derivative polynomials and high-order values.
func TestC13LogisticDerivatives(t *testing.T) {
	want := map[int][]float64{
		1: {0, 1, -1},
		2: {0, 1, -3, 2},
		3: {0, 1, -7, 12, -6},
		4: {0, 1, -15, 50, -60, 24},
	}
	for n, w := range want {
		p, err := LogisticPoly(n)
		if err != nil {
			t.Fatal(err)
		}
		if len(p) != len(w) {
			t.Fatalf("P_%d = %v, want %v", n, p, w)
		}
		for i := range w {
			if p[i] != w[i] {
				t.Fatalf("P_%d = %v, want %v", n, p, w)
			}
		}
	}
	vals := map[int]float64{8: -0.7415652, 12: -33.97550, 16: -1283.446}
	for j, w := range vals {
		if v := logisticDeriv(j, 0.3); !near(v, w, 2e-6*math.Abs(w)) {
			t.Errorf("g^(%d)(0.3) = %v, want %v", j, v, w)
		}
	}
	// g'' = S(1−S) against a finite difference of g'.
	m := 0.3
	fd := (logisticDeriv(1, m+1e-6) - logisticDeriv(1, m-1e-6)) / 2e-6
	if v := logisticDeriv(2, m); !near(v, fd, 1e-8) {
		t.Errorf("g''(0.3) = %v, finite difference %v", v, fd)
	}
	if _, err := Logistic(MaxLogisticOrder + 1); err == nil {
		t.Error("Logistic(MaxLogisticOrder+1) gave no error")
	}
}

// C14 and C15: bias and spread of the truncated inverse.
func TestC14C15Truncation(t *testing.T) {
	bias := []struct {
		s, m float64
		k    int
		want float64
	}{
		{0.5, 0, 0, 3.03e-2}, {0.5, 0, 1, 8.40e-4}, {0.5, 0, 3, 5.86e-6}, {0.5, 0, 6, 2.18e-8},
		{0.5, 1, 2, -4.93e-6}, {1, 0, 0, 1.13e-1}, {1, 0, 4, 1.41e-4}, {1, 1, 3, -6.86e-5},
		{2, 0, 0, 3.75e-1}, {2, 0, 2, 2.63e-2}, {2, 1, 5, 4.95e-5}, {2, 1, 6, -2.39e-4},
	}
	for _, c := range bias {
		b, _, err := TruncationStats(c.s, c.m, c.k)
		if err != nil {
			t.Fatal(err)
		}
		if !near(b, c.want, 0.01*math.Abs(c.want)+1e-9) {
			t.Errorf("bias(s=%v, m=%v, K=%d) = %.3g, want %.3g", c.s, c.m, c.k, b, c.want)
		}
	}
	std2 := []float64{1.09, 1.16, 1.20, 1.25, 1.36, 1.82, 4.37, 17.0, 83.8}
	for k, w := range std2 {
		_, sd, err := TruncationStats(2, 0, k)
		if err != nil {
			t.Fatal(err)
		}
		if !near(sd, w, 0.006*w+0.005) {
			t.Errorf("std(s=2, K=%d) = %.3g, want %.3g", k, sd, w)
		}
	}
	for k := 0; k <= 8; k++ {
		_, sd, _ := TruncationStats(0.5, 0, k)
		if !near(sd, 0.254, 0.001) {
			t.Errorf("std(s=0.5, K=%d) = %.4g, want 0.254", k, sd)
		}
	}
}

// The logistic IWP gradient is unbiased for the truncated target up to the
// truncation bias: at small s with K=4 it matches the clean gradient.
func TestLogisticIWPNearlyUnbiased(t *testing.T) {
	l := mustLogistic(t, 4)
	theta := []float64{0.3, -0.2}
	sigma, eps := 1.0, 1.0 // s = σ‖θ‖ ≈ 0.36
	n := 1000000
	mean, se, gm, gse := mcIWP(l, theta, n, 31, sigma, eps)
	want := l.NaiveLoss(theta, c11x, 1)
	if !near(mean, want, 4*se+1e-6) {
		t.Errorf("E IWP logistic loss = %v ± %v, want %v", mean, se, want)
	}
	tg := make([]float64, 2)
	l.NaiveGrad(theta, c11x, 1, tg)
	for j := range tg {
		if !near(gm[j], tg[j], 4*gse[j]+1e-6) {
			t.Errorf("E IWP logistic grad[%d] = %v ± %v, want %v", j, gm[j], gse[j], tg[j])
		}
	}
}

// The forward transform gives the naive biases of C11, C12 and C16.
func TestForwardW(t *testing.T) {
	u := 0.3*0.5 + 0.2*1.0 // ⟨θ, x⟩ of C11
	s := math.Hypot(0.3, 0.2)
	e := Exponential()
	if v := Bernoulli(e.W(u, 1, s), e.W(u, -1, s), 1); !near(v, 0.95704349, 1e-8) {
		t.Errorf("exponential naive mean %v, want 0.95704349", v)
	}
	q := Quadratic()
	if v := Bernoulli(q.W(u, 1, s), q.W(u, -1, s), 1); !near(v, 0.92901799, 1e-8) {
		t.Errorf("quadratic naive mean %v, want 0.92901799", v)
	}
	// W and W⁻¹ are inverse: E W⁻¹[φ](u+sZ) = φ(u) for the closed forms.
	for _, l := range []Loss{e, q} {
		if v := l.W(u, 1, 0); !near(v, l.Value(u, 1), 1e-15) {
			t.Errorf("%v: W at s=0 = %v, want φ = %v", l, v, l.Value(u, 1))
		}
	}
	// Logistic: quadrature against Monte Carlo.
	lg := mustLogistic(t, 0)
	rng := rand.New(rand.NewPCG(4, 4))
	var sum, sum2 float64
	n := 200000
	for range n {
		v := lg.Value(u+1.3*rng.NormFloat64(), -1)
		sum += v
		sum2 += v * v
	}
	m := sum / float64(n)
	se := math.Sqrt((sum2/float64(n) - m*m) / float64(n))
	if w := lg.W(u, -1, 1.3); !near(w, m, 4*se) {
		t.Errorf("logistic W = %v, MC %v ± %v", w, m, se)
	}
	// C16: the naive population risk E[B W φ] + λθ²/2 is minimised at 0.104128.
	obj := func(th float64) float64 {
		// X = 0.5Y: u = 0.5·y·θ for y = ±1, both equally likely, σ = 1, s = |θ|.
		var r float64
		for _, y := range []float64{1, -1} {
			u := 0.5 * y * th
			r += 0.5 * Bernoulli(e.W(u, y, math.Abs(th)), e.W(u, -y, math.Abs(th)), 1)
		}
		return r + th*th/2
	}
	lo, hi := 0.0, 1.0
	for range 100 {
		a, b := lo+(hi-lo)/3, hi-(hi-lo)/3
		if obj(a) < obj(b) {
			hi = b
		} else {
			lo = a
		}
	}
	if !near(lo, 0.104128, 1e-5) {
		t.Errorf("naive minimiser %v, want 0.104128", lo)
	}
}
