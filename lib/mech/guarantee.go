package mech

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Guarantee is an (ε, δ) differential privacy guarantee in a stated trust
// model. In the local model (Model = Local, the zero value: every
// randomiser of this library that runs on one individual's data), for any
// two inputs u, u' of one individual and any event A of outputs,
// P(M(u) ∈ A) ≤ e^ε P(M(u') ∈ A) + δ. In the central model (Model =
// Central: a curator holding the whole database, such as PMW), the same
// inequality holds for any two databases differing in one individual's
// record. Delta = 0 is pure ε-DP.
type Guarantee struct {
	Epsilon float64 // privacy loss bound ε ≥ 0 (may be +Inf: no privacy)
	Delta   float64 // failure probability δ in [0, 1]
	Model   Model   // who is trusted: Local (the zero value) or Central
}

// Model is the trust model of a guarantee.
type Model uint8

const (
	// Local: the guarantee holds for each individual's report on its own
	// (local differential privacy); nobody need be trusted.
	Local Model = iota
	// Central: the guarantee holds for the curator's output on neighbouring
	// databases (central differential privacy); the curator is trusted
	// with the raw data.
	Central
)

// String returns "LDP" for Local and "DP" for Central, the suffix of a
// guarantee's text.
func (m Model) String() string {
	switch m {
	case Local:
		return "LDP"
	case Central:
		return "DP"
	}
	return fmt.Sprintf("Model(%d)", uint8(m))
}

// Pure returns the pure local guarantee (ε, 0).
func Pure(epsilon float64) Guarantee { return Guarantee{Epsilon: epsilon} }

// Validate reports whether g is a meaningful guarantee: ε is a number ≥ 0
// (+Inf allowed), δ is in [0, 1] and the model is Local or Central.
func (g Guarantee) Validate() error {
	if math.IsNaN(g.Epsilon) || g.Epsilon < 0 {
		return fmt.Errorf("mech: guarantee epsilon = %v, want ε ≥ 0", g.Epsilon)
	}
	if math.IsNaN(g.Delta) || g.Delta < 0 || g.Delta > 1 {
		return fmt.Errorf("mech: guarantee delta = %v, want δ in [0, 1]", g.Delta)
	}
	if g.Model != Local && g.Model != Central {
		return fmt.Errorf("mech: guarantee model = %v, want Local or Central", g.Model)
	}
	return nil
}

// IsPure reports whether g has δ = 0.
func (g Guarantee) IsPure() bool { return g.Delta == 0 }

// Within reports whether g is at most budget in both ε and δ, allowing a
// relative slack of 1e-12 for rounding in sums. A central guarantee is
// never within a local budget: it says nothing about what one individual's
// report reveals. A local guarantee is within a central budget of the same
// (ε, δ), since the curator may run the local randomisers itself.
func (g Guarantee) Within(budget Guarantee) bool {
	if g.Model == Central && budget.Model != Central {
		return false
	}
	return g.Epsilon <= budget.Epsilon*(1+1e-12)+1e-15 && g.Delta <= budget.Delta*(1+1e-12)+1e-300
}

// String formats g as "(ε=1, δ=1e-05)-LDP", or "ε=1-LDP" when δ = 0; a
// central guarantee ends in "-DP" instead.
func (g Guarantee) String() string {
	if g.Delta == 0 {
		return "ε=" + fmtG(g.Epsilon) + "-" + g.Model.String()
	}
	return "(ε=" + fmtG(g.Epsilon) + ", δ=" + fmtG(g.Delta) + ")-" + g.Model.String()
}

// LaTeX formats g as a LaTeX math expression without delimiters, such as
// (\varepsilon, \delta) = (1, 10^{-5}).
func (g Guarantee) LaTeX() string {
	if g.Delta == 0 {
		return `\varepsilon = ` + texG(g.Epsilon)
	}
	return `(\varepsilon, \delta) = (` + texG(g.Epsilon) + ", " + texG(g.Delta) + ")"
}

// Markdown formats g for a notebook: the LaTeX form between $ signs
// followed by "-LDP" ("-DP" for a central guarantee).
func (g Guarantee) Markdown() string { return "$" + g.LaTeX() + "$-" + g.Model.String() }

// Compose returns the basic sequential composition of guarantees on the same
// individual's data: (Σ ε_i, Σ δ_i), with δ capped at 1. Compose() is (0, 0).
// The result is local only when every part is: composing with a central
// guarantee leaves a central one.
func Compose(gs ...Guarantee) Guarantee {
	var s Guarantee
	for _, g := range gs {
		s.Epsilon += g.Epsilon
		s.Delta += g.Delta
		if g.Model == Central {
			s.Model = Central
		}
	}
	if s.Delta > 1 {
		s.Delta = 1
	}
	return s
}

// ComposeAdvanced returns the advanced composition bound of Dwork, Rothblum
// and Vadhan (Dwork–Roth Thm 3.20) for k adaptively chosen mechanisms, each
// (ε, δ)-DP: (ε', kδ + δ') with ε' = sqrt(2k ln(1/δ')) ε + k ε (e^ε − 1).
// The slack deltaPrime must be in (0, 1).
func ComposeAdvanced(g Guarantee, k int, deltaPrime float64) (Guarantee, error) {
	if err := g.Validate(); err != nil {
		return Guarantee{}, err
	}
	if k < 0 {
		return Guarantee{}, fmt.Errorf("mech: ComposeAdvanced k = %d, want k ≥ 0", k)
	}
	if !(deltaPrime > 0 && deltaPrime < 1) {
		return Guarantee{}, fmt.Errorf("mech: ComposeAdvanced deltaPrime = %v, want δ' in (0, 1)", deltaPrime)
	}
	kf := float64(k)
	eps := math.Sqrt(2*kf*math.Log(1/deltaPrime))*g.Epsilon + kf*g.Epsilon*math.Expm1(g.Epsilon)
	return Guarantee{Epsilon: eps, Delta: math.Min(1, kf*g.Delta+deltaPrime), Model: g.Model}, nil
}

// ComposeLN returns the lecture-notes variant of advanced composition
// (L. Wang, Lecture 13, Thm 13.5): k rounds of pure eps0-DP mechanisms are
// (ε, δ)-DP with ε = sqrt(2k ln(1/δ)) ε₀ + 2k ε₀². It is looser than
// ComposeAdvanced and is provided to reproduce the notes.
func ComposeLN(eps0 float64, k int, delta float64) (Guarantee, error) {
	if math.IsNaN(eps0) || eps0 < 0 || math.IsInf(eps0, 1) {
		return Guarantee{}, fmt.Errorf("mech: ComposeLN eps0 = %v, want finite ε₀ ≥ 0", eps0)
	}
	if k < 0 {
		return Guarantee{}, fmt.Errorf("mech: ComposeLN k = %d, want k ≥ 0", k)
	}
	if !(delta > 0 && delta < 1) {
		return Guarantee{}, fmt.Errorf("mech: ComposeLN delta = %v, want δ in (0, 1)", delta)
	}
	kf := float64(k)
	return Guarantee{Epsilon: math.Sqrt(2*kf*math.Log(1/delta))*eps0 + 2*kf*eps0*eps0, Delta: delta}, nil
}

// fmtG formats a float compactly with up to 6 significant digits.
func fmtG(x float64) string {
	if math.IsInf(x, 1) {
		return "∞"
	}
	return strconv.FormatFloat(x, 'g', 6, 64)
}

// texG formats a float for LaTeX: 1e-05 becomes 10^{-5}, 2.5e-07 becomes
// 2.5 \times 10^{-7}.
func texG(x float64) string {
	if math.IsInf(x, 1) {
		return `\infty`
	}
	s := strconv.FormatFloat(x, 'g', 6, 64)
	i := strings.IndexByte(s, 'e')
	if i < 0 {
		return s
	}
	mant, exp := s[:i], s[i+1:]
	e, _ := strconv.Atoi(exp)
	if mant == "1" {
		return fmt.Sprintf("10^{%d}", e)
	}
	return fmt.Sprintf(`%s \times 10^{%d}`, mant, e)
}

// upEps rounds a computed privacy loss up by one ulp so that rounding in the
// privacy map can only over-state ε.
func upEps(x float64) float64 { return math.Nextafter(x, math.Inf(1)) }

// Mechanism is what every mechanism in this package implements: it knows
// its guarantee and renders itself as text and as Markdown with LaTeX
// (the notebook kernel displays values of this interface).
type Mechanism interface {
	Guarantee() Guarantee
	String() string
	Markdown() string
}

var (
	_ Mechanism = (*Laplace)(nil)
	_ Mechanism = (*Gaussian)(nil)
	_ Mechanism = (*RandomizedResponse)(nil)
	_ Mechanism = (*GRR)(nil)
	_ Mechanism = (*HistogramEncoding)(nil)
	_ Mechanism = (*CubeHistogram)(nil)
	_ Mechanism = (*VoronoiCell)(nil)
	_ Mechanism = (*FeatureLabelRelease)(nil)
)

// Profiler is implemented by mechanisms that know their whole privacy
// profile: the smallest δ for which they are (ε, δ)-DP, for every ε.
type Profiler interface {
	DeltaFor(epsilon float64) float64
}

// Satisfies reports whether mechanism m is g-private, the question OpenDP's
// check answers: by comparing m's guarantee with g (pure ε-DP implies
// (ε', δ) for every ε' ≥ ε), or else from m's privacy profile when it has
// one (Profiler), in the same model (a central mechanism never satisfies a
// local budget).
func Satisfies(m Mechanism, g Guarantee) bool {
	if m.Guarantee().Within(g) {
		return true
	}
	if p, ok := m.(Profiler); ok && (m.Guarantee().Model == Local || g.Model == Central) {
		return p.DeltaFor(g.Epsilon) <= g.Delta
	}
	return false
}
