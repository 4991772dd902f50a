package iwp

import (
	"fmt"
	"math"
)

// LossKind names the margin function of a generalised linear loss.
type LossKind int

const (
	// QuadraticKind is φ(u, y) = (u − y)².
	QuadraticKind LossKind = iota
	// ExponentialKind is φ(u, y) = exp(−y·u).
	ExponentialKind
	// LogisticKind is φ(u, y) = log(1 + exp(−y·u)).
	LogisticKind
)

// String returns the loss name.
func (k LossKind) String() string {
	switch k {
	case QuadraticKind:
		return "quadratic"
	case ExponentialKind:
		return "exponential"
	case LogisticKind:
		return "logistic"
	}
	return fmt.Sprintf("LossKind(%d)", int(k))
}

// MaxLogisticOrder is the largest truncation order K accepted by Logistic.
// The series uses derivatives up to order 2K+2, whose polynomial
// coefficients grow like factorials; float64 evaluation keeps about seven
// digits up to order 20.
const MaxLogisticOrder = 8

// Loss is a generalised linear loss ℓ(θ; x, y) = φ(⟨θ,x⟩, y) for labels
// y ∈ {−1, +1}. Its zero value is the quadratic loss. Build one with
// Quadratic, Exponential or Logistic.
//
// For the inverse Weierstrass transform only the one-dimensional margin
// function matters: with u = ⟨θ,x̃⟩ and s = σ‖θ‖,
//
//	W⁻¹_σ[ℓ(θ;·,y)](x̃) = Σₖ (−s²/2)ᵏ/k! φ⁽²ᵏ⁾(u, y),
//
// exact for the quadratic (two terms) and exponential (closed form
// exp(−yu − s²/2)) losses, and truncated after the term k = K for the
// logistic loss, whose series diverges.
type Loss struct {
	kind LossKind
	k    int
}

// Quadratic returns the squared loss φ(u, y) = (u − y)² (no factor ½).
func Quadratic() Loss { return Loss{kind: QuadraticKind, k: 1} }

// Exponential returns the exponential loss φ(u, y) = exp(−y·u).
func Exponential() Loss { return Loss{kind: ExponentialKind} }

// Logistic returns the logistic loss φ(u, y) = log(1 + exp(−y·u)) whose
// inverse Weierstrass series is truncated after order k (0 ≤ k ≤
// MaxLogisticOrder; k = 0 means no feature-noise correction). The
// estimator's variance grows quickly with k once σ‖θ‖ ≳ 2: use
// TruncationStats to choose k by bias and spread.
func Logistic(k int) (Loss, error) {
	if k < 0 || k > MaxLogisticOrder {
		return Loss{}, fmt.Errorf("iwp: Logistic: order k = %d, need 0 <= k <= %d", k, MaxLogisticOrder)
	}
	return Loss{kind: LogisticKind, k: k}, nil
}

// Kind returns the loss family.
func (l Loss) Kind() LossKind { return l.kind }

// Order returns the truncation order K of the inverse series (logistic
// loss); 1 for the quadratic loss, whose series ends there, and 0 for the
// exponential loss, which uses its closed form.
func (l Loss) Order() int { return l.k }

// String describes the loss.
func (l Loss) String() string {
	if l.kind == LogisticKind {
		return fmt.Sprintf("logistic (K=%d)", l.k)
	}
	return l.kind.String()
}

// Value returns φ(u, y).
func (l Loss) Value(u, y float64) float64 {
	switch l.kind {
	case ExponentialKind:
		return math.Exp(-y * u)
	case LogisticKind:
		return softplus(-y * u)
	}
	d := u - y
	return d * d
}

// Deriv returns ∂φ/∂u at (u, y).
func (l Loss) Deriv(u, y float64) float64 {
	switch l.kind {
	case ExponentialKind:
		return -y * math.Exp(-y*u)
	case LogisticKind:
		return -y * sigmoid(-y*u)
	}
	return 2 * (u - y)
}

// Derivative returns the j-th derivative of φ in its first argument at
// (u, y), for labels y = ±1. For the logistic loss j ≤ 2·MaxLogisticOrder+2.
func (l Loss) Derivative(j int, u, y float64) float64 {
	m := y * u
	sign := 1.0
	if j%2 == 1 {
		sign = y
	}
	switch l.kind {
	case ExponentialKind:
		if j%2 == 1 {
			return -sign * math.Exp(-m)
		}
		return math.Exp(-m)
	case LogisticKind:
		return sign * logisticDeriv(j, m)
	}
	switch j {
	case 0:
		return (u - y) * (u - y)
	case 1:
		return 2 * (u - y)
	case 2:
		return 2
	}
	return 0
}

// W returns the Weierstrass transform of φ(·, y) at u for the feature
// noise level s = σ‖θ‖: W_s[φ(·,y)](u) = E φ(u + sZ, y), Z standard normal,
// the expected loss of a noisy example at margin input u. Closed forms for
// the quadratic ((u−y)² + s²) and exponential (exp(−yu + s²/2)) losses;
// Gauss–Hermite quadrature for the logistic loss. With Bernoulli on top it
// gives the expected naive loss on a release:
// Bernoulli(l.W(u, y, s), l.W(u, −y, s), epsY).
func (l Loss) W(u, y, s float64) float64 {
	switch l.kind {
	case ExponentialKind:
		return math.Exp(-y*u + s*s/2)
	case LogisticKind:
		x, w := hermiteNodes()
		var v float64
		for i, xi := range x {
			v += w[i] * softplus(-y*(u+s*math.Sqrt2*xi))
		}
		return v / math.SqrtPi
	}
	return (u-y)*(u-y) + s*s
}

// InvW returns the inverse Weierstrass transform of φ(·, y) at u for the
// feature noise level s = σ‖θ‖: W⁻¹_s[φ(·,y)](u) = Σₖ (−s²/2)ᵏ/k! φ⁽²ᵏ⁾(u,y)
// (truncated after k = K for the logistic loss). Its expectation at
// u + sZ, Z standard normal, is φ(u, y) (up to truncation bias).
func (l Loss) InvW(u, y, s float64) float64 {
	h := s * s / 2
	switch l.kind {
	case ExponentialKind:
		return math.Exp(-y*u - h)
	case LogisticKind:
		var d [2*MaxLogisticOrder + 3]float64
		logisticDerivs(y*u, 2*l.k, d[:])
		v, c := 0.0, 1.0
		for k := 0; k <= l.k; k++ {
			v += c * d[2*k]
			c *= -h / float64(k+1)
		}
		return v
	}
	return (u-y)*(u-y) - 2*h
}

// IWPLoss returns the IWP estimate of the loss ℓ(θ; x, y) from a released
// example (xt, yt) with feature noise sigma and label budget epsY:
//
//	(e^epsY·W⁻¹[ℓ(θ;·,yt)](xt) − W⁻¹[ℓ(θ;·,−yt)](xt)) / (e^epsY − 1).
//
// It may be negative or large; it must not be clipped, or the bias returns.
// theta and xt have the same length.
func (l Loss) IWPLoss(theta, xt []float64, yt, sigma, epsY float64) float64 {
	u, n2 := dotNorm(theta, xt)
	s := sigma * math.Sqrt(n2)
	a, b := labelWeights(epsY)
	if l.kind == ExponentialKind {
		h := s * s / 2
		m := yt * u
		return math.Exp(math.Log(a)-m-h) - math.Exp(math.Log(b)+m-h)
	}
	return a*l.InvW(u, yt, s) - b*l.InvW(u, -yt, s)
}

// IWPGrad writes into grad the gradient in θ of IWPLoss at (xt, yt):
//
//	A·xt − σ²·B·θ,
//
// where A and B are the label-inverted inverse transforms of φ′ and φ″
// (IWPCoef). grad must have the length of theta.
func (l Loss) IWPGrad(theta, xt []float64, yt, sigma, epsY float64, grad []float64) {
	u, n2 := dotNorm(theta, xt)
	h := sigma * sigma * n2 / 2
	a, b := labelWeights(epsY)
	ca, cb := l.iwpCoef(u, yt, h, math.Log(a), math.Log(b), a, b)
	s2 := sigma * sigma
	for j := range grad {
		grad[j] = ca*xt[j] - s2*cb*theta[j]
	}
}

// IWPCoef returns the two scalars of the IWP gradient of a generalised
// linear loss at margin input u = ⟨θ,x̃⟩, released label yt, feature noise
// s = σ‖θ‖ and label budget epsY: the gradient is A·x̃ − σ²·B·θ with
//
//	A = B⁻¹[W⁻¹_s[φ′]](yt),  B = B⁻¹[W⁻¹_s[φ″]](yt)
//
// (W⁻¹ of φ″ truncated one order lower for the logistic loss, so that the
// gradient is exactly that of the truncated loss).
func (l Loss) IWPCoef(u, yt, s, epsY float64) (A, B float64) {
	a, b := labelWeights(epsY)
	return l.iwpCoef(u, yt, s*s/2, math.Log(a), math.Log(b), a, b)
}

// iwpCoef is IWPCoef with h = s²/2 and the label weights precomputed.
func (l Loss) iwpCoef(u, yt, h, la, lb, a, b float64) (A, B float64) {
	switch l.kind {
	case ExponentialKind:
		// W⁻¹[φ′(·,y)](u) = −y·e^{−yu−h}, W⁻¹[φ″(·,y)](u) = e^{−yu−h};
		// exponents are combined before exponentiating.
		m := yt * u
		e1 := math.Exp(la - m - h)
		e2 := math.Exp(lb + m - h)
		return -yt * (e1 + e2), e1 - e2
	case LogisticKind:
		return l.logisticCoef(u, yt, h, a, b)
	}
	// Quadratic: W⁻¹[φ′] = 2(u−y), W⁻¹[φ″] = 2; a − b = 1.
	return a*2*(u-yt) - b*2*(u+yt), 2 * (a - b)
}

// logisticCoef computes the truncated IWP gradient scalars of the logistic loss.
func (l Loss) logisticCoef(u, yt, h, a, b float64) (A, B float64) {
	var dp, dn [2*MaxLogisticOrder + 3]float64
	m := yt * u
	top := 2*l.k + 1
	logisticDerivs(m, top, dp[:])
	logisticDerivs(-m, top, dn[:])
	// φ^(j)(u, y) = y^j g^(j)(y u). For label yt: margin m; for −yt: −m.
	var w1p, w1n, w2p, w2n float64
	c := 1.0
	for k := 0; k <= l.k; k++ {
		w1p += c * dp[2*k+1]
		w1n += c * dn[2*k+1]
		if k < l.k {
			w2p += c * dp[2*k+2]
			w2n += c * dn[2*k+2]
		}
		c *= -h / float64(k+1)
	}
	// W⁻¹[φ′(·,yt)] = yt·w1p, W⁻¹[φ′(·,−yt)] = −yt·w1n.
	A = yt * (a*w1p + b*w1n)
	B = a*w2p - b*w2n
	return A, B
}

// NaiveLoss returns the loss φ(⟨θ,x⟩, y) evaluated as if (x, y) were clean
// data; on a release it is the biased estimate naive SGD minimises.
func (l Loss) NaiveLoss(theta, x []float64, y float64) float64 {
	u, _ := dotNorm(theta, x)
	return l.Value(u, y)
}

// NaiveGrad writes the gradient φ′(⟨θ,x⟩, y)·x into grad.
func (l Loss) NaiveGrad(theta, x []float64, y float64, grad []float64) {
	u, _ := dotNorm(theta, x)
	d := l.Deriv(u, y)
	for j := range grad {
		grad[j] = d * x[j]
	}
}

// RegressionGrad writes into grad the IWP gradient of the squared loss
// (⟨θ,x⟩ − y)² for a continuous target released with additive noise of
// mean zero (ỹ = y + τN): 2(⟨θ,x̃⟩ − ỹ)·x̃ − 2σ²θ. The target enters
// linearly, so only the feature noise needs correcting (spec §6.9).
func RegressionGrad(theta, xt []float64, yt, sigma float64, grad []float64) {
	u, _ := dotNorm(theta, xt)
	s2 := sigma * sigma
	for j := range grad {
		grad[j] = 2*(u-yt)*xt[j] - 2*s2*theta[j]
	}
}

// RegressionLoss returns the IWP estimate of (⟨θ,x⟩ − y)² from a released
// example with feature noise sigma: (⟨θ,x̃⟩ − ỹ)² − σ²‖θ‖² − τ², where tau
// is the standard deviation of the target noise (0 if the target is clean).
func RegressionLoss(theta, xt []float64, yt, sigma, tau float64) float64 {
	u, n2 := dotNorm(theta, xt)
	return (u-yt)*(u-yt) - sigma*sigma*n2 - tau*tau
}

// dotNorm returns ⟨θ,x⟩ and ‖θ‖².
func dotNorm(theta, x []float64) (dot, n2 float64) {
	x = x[:len(theta)]
	for j, t := range theta {
		dot += t * x[j]
		n2 += t * t
	}
	return dot, n2
}

// softplus returns log(1 + e^v) without overflow.
func softplus(v float64) float64 {
	if v > 0 {
		return v + math.Log1p(math.Exp(-v))
	}
	return math.Log1p(math.Exp(v))
}

// sigmoid returns 1/(1 + e^{−v}).
func sigmoid(v float64) float64 {
	if v >= 0 {
		return 1 / (1 + math.Exp(-v))
	}
	e := math.Exp(v)
	return e / (1 + e)
}
