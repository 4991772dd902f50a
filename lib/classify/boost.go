package classify

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
)

// Hypothesis is a base classifier for boosting. Classify is batch-shaped
// (a cell-defined hypothesis costs one interpreted call per batch, not per
// example): it sets out[i] = h(xs[i]) ∈ {−1, +1}.
type Hypothesis interface {
	Classify(xs [][]float64, out []int)
}

// WeakLearner trains a base hypothesis on examples xs with labels y ∈
// {−1, +1} and weights w (non-negative, summing to 1). Any function with
// this signature can be boosted; StumpLearner is the built-in one.
type WeakLearner func(xs [][]float64, y []int, w []float64) (Hypothesis, error)

// Stump is a decision stump: h(x) = Sign when x[Feature] > Threshold and
// −Sign otherwise (Sign is +1 or −1). Threshold −Inf gives the constant
// classifier Sign.
type Stump struct {
	Feature   int
	Threshold float64
	Sign      int
}

// Classify sets out[i] = h(xs[i]).
func (s Stump) Classify(xs [][]float64, out []int) {
	for i, x := range xs {
		if x[s.Feature] > s.Threshold {
			out[i] = s.Sign
		} else {
			out[i] = -s.Sign
		}
	}
}

// String formats the stump as "x[2] > 3.5 → +1".
func (s Stump) String() string {
	return fmt.Sprintf("x[%d] > %g → %+d", s.Feature, s.Threshold, s.Sign)
}

// stumpSearch finds weighted-error-minimising stumps on fixed examples;
// each feature's order is sorted once, so a search costs O(n·d).
type stumpSearch struct {
	xs    [][]float64
	order [][]int // order[j]: example indices sorted by feature j
}

func newStumpSearch(xs [][]float64) *stumpSearch {
	d := len(xs[0])
	s := &stumpSearch{xs: xs, order: make([][]int, d)}
	for j := range d {
		o := make([]int, len(xs))
		for i := range o {
			o[i] = i
		}
		sort.SliceStable(o, func(a, b int) bool { return xs[o[a]][j] < xs[o[b]][j] })
		s.order[j] = o
	}
	return s
}

// best returns the stump of least weighted error and that error.
func (s *stumpSearch) best(y []int, w []float64) (Stump, float64) {
	total, neg := 0.0, 0.0
	for i, wi := range w {
		total += wi
		if y[i] < 0 {
			neg += wi
		}
	}
	// Constant +1 errs on the negatives; constant −1 on the positives.
	bst := Stump{Feature: 0, Threshold: math.Inf(-1), Sign: 1}
	bestErr := neg
	if total-neg < bestErr {
		bst.Sign, bestErr = -1, total-neg
	}
	for j, o := range s.order {
		err := neg // rule "+1 above the threshold" with the threshold below every value
		for a := 0; a < len(o)-1; a++ {
			i := o[a]
			if y[i] > 0 {
				err += w[i]
			} else {
				err -= w[i]
			}
			v, next := s.xs[i][j], s.xs[o[a+1]][j]
			if next == v {
				continue
			}
			if err < bestErr {
				bst, bestErr = Stump{Feature: j, Threshold: v + (next-v)/2, Sign: 1}, err
			}
			if total-err < bestErr {
				bst, bestErr = Stump{Feature: j, Threshold: v + (next-v)/2, Sign: -1}, total-err
			}
		}
	}
	return bst, math.Max(0, bestErr)
}

// BestStump returns the decision stump of least weighted error on xs, y, w
// (thresholds halfway between consecutive distinct values) and its error.
func BestStump(xs [][]float64, y []int, w []float64) (Stump, float64, error) {
	if err := checkBoostData("BestStump", xs, y); err != nil {
		return Stump{}, 0, err
	}
	if len(w) != len(y) {
		return Stump{}, 0, fmt.Errorf("classify: BestStump: %d weights for %d examples", len(w), len(y))
	}
	s, e := newStumpSearch(xs).best(y, w)
	return s, e, nil
}

// StumpLearner is the WeakLearner returning BestStump (it sorts the
// features on every call; AdaBoost with a nil Learner sorts once).
func StumpLearner(xs [][]float64, y []int, w []float64) (Hypothesis, error) {
	s, _, err := BestStump(xs, y, w)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// BoostOptions configure AdaBoost.
type BoostOptions struct {
	// Rounds is the number of boosting rounds T (default 100).
	Rounds int
	// Learner trains the base hypotheses; nil means decision stumps.
	Learner WeakLearner
	// TestX and TestY, when set, give the test error after every round.
	TestX [][]float64
	TestY []int
}

// Boost is a voted classifier trained by AdaBoost (Freund and Schapire),
// f(x) = Σ_t a_t h_t(x) with normalised voting weights a_t = α_t / Σ_s α_s,
// α_t = ½ ln((1 − ε_t)/ε_t) and ε_t the weighted training error of h_t. The
// margin of an example (x, y) is y·f(x) ∈ [−1, 1] (lecture notes §13.4);
// it is positive exactly when the vote classifies the example correctly.
type Boost struct {
	// Hypotheses h_t and their unnormalised weights α_t, in round order.
	Hypotheses []Hypothesis
	Alphas     []float64
	// WeightedErrors ε_t of each round's hypothesis.
	WeightedErrors []float64
	// TrainError and TestError after each round (TestError is nil without
	// test data). A tie f(x) = 0 counts as an error.
	TrainError, TestError []float64
	// Stopped says why boosting stopped before Rounds, or is empty.
	Stopped string
}

func checkBoostData(name string, xs [][]float64, y []int) error {
	if len(xs) == 0 {
		return fmt.Errorf("classify: %s: no examples", name)
	}
	if len(xs) != len(y) {
		return fmt.Errorf("classify: %s: %d examples but %d labels", name, len(xs), len(y))
	}
	d := len(xs[0])
	if d == 0 {
		return fmt.Errorf("classify: %s: examples have no features", name)
	}
	for i, x := range xs {
		if len(x) != d {
			return fmt.Errorf("classify: %s: example %d has %d features, want %d", name, i, len(x), d)
		}
		for j, v := range x {
			if math.IsNaN(v) {
				return fmt.Errorf("classify: %s: example %d feature %d is NaN", name, i, j)
			}
		}
	}
	return checkPM(name, y)
}

// AdaBoost runs AdaBoost for opt.Rounds rounds on xs with labels y ∈
// {−1, +1}: weights start uniform; round t trains h_t on the weights,
// ε_t = Σ_{i: h_t(x_i) ≠ y_i} w_i, α_t = ½ ln((1 − ε_t)/ε_t), and
// w_i ← w_i·e^{−α_t y_i h_t(x_i)} normalised. It stops early when
// ε_t ≥ 1/2 (no better than chance; h_t is dropped) or ε_t = 0 (h_t is kept
// with the weight of ε_t = 1/(2n), one half-example of error, so that the
// vote stays finite). It honours ctx between rounds.
func AdaBoost(ctx context.Context, xs [][]float64, y []int, opt BoostOptions) (*Boost, error) {
	if err := checkBoostData("AdaBoost", xs, y); err != nil {
		return nil, err
	}
	if opt.Rounds < 0 {
		return nil, fmt.Errorf("classify: AdaBoost: Rounds = %d, want ≥ 1", opt.Rounds)
	}
	if opt.Rounds == 0 {
		opt.Rounds = 100
	}
	if opt.TestX != nil || opt.TestY != nil {
		if err := checkBoostData("AdaBoost test data", opt.TestX, opt.TestY); err != nil {
			return nil, err
		}
		if len(opt.TestX[0]) != len(xs[0]) {
			return nil, fmt.Errorf("classify: AdaBoost: test examples have %d features, training %d", len(opt.TestX[0]), len(xs[0]))
		}
	}
	n := len(xs)
	learner := opt.Learner
	if learner == nil {
		ss := newStumpSearch(xs)
		learner = func(_ [][]float64, y []int, w []float64) (Hypothesis, error) {
			s, _ := ss.best(y, w)
			return s, nil
		}
	}
	w := make([]float64, n)
	for i := range w {
		w[i] = 1 / float64(n)
	}
	b := &Boost{}
	F := make([]float64, n)
	h := make([]int, n)
	var Ft []float64
	var ht []int
	if opt.TestX != nil {
		Ft = make([]float64, len(opt.TestX))
		ht = make([]int, len(opt.TestX))
	}
	for t := range opt.Rounds {
		if err := ctx.Err(); err != nil {
			return b, err
		}
		hyp, err := learner(xs, y, append([]float64(nil), w...))
		if err != nil {
			return b, fmt.Errorf("classify: AdaBoost round %d: %w", t+1, err)
		}
		if hyp == nil {
			return b, fmt.Errorf("classify: AdaBoost round %d: the learner returned no hypothesis", t+1)
		}
		hyp.Classify(xs, h)
		eps := 0.0
		for i := range h {
			if h[i] != 1 && h[i] != -1 {
				return b, fmt.Errorf("classify: AdaBoost round %d: hypothesis gave %d on example %d, want −1 or +1", t+1, h[i], i)
			}
			if h[i] != y[i] {
				eps += w[i]
			}
		}
		if eps >= 0.5 {
			b.Stopped = fmt.Sprintf("round %d: weighted error %.4g ≥ 1/2", t+1, eps)
			break
		}
		perfect := eps <= 0
		if perfect {
			eps = 1 / (2 * float64(n))
		}
		alpha := 0.5 * math.Log((1-eps)/eps)
		b.Hypotheses = append(b.Hypotheses, hyp)
		b.Alphas = append(b.Alphas, alpha)
		b.WeightedErrors = append(b.WeightedErrors, eps)
		z := 0.0
		for i := range w {
			w[i] *= math.Exp(-alpha * float64(y[i]*h[i]))
			z += w[i]
			F[i] += alpha * float64(h[i])
		}
		for i := range w {
			w[i] /= z
		}
		b.TrainError = append(b.TrainError, voteError(F, y))
		if Ft != nil {
			hyp.Classify(opt.TestX, ht)
			for i, v := range ht {
				Ft[i] += alpha * float64(v)
			}
			b.TestError = append(b.TestError, voteError(Ft, opt.TestY))
		}
		if perfect {
			b.Stopped = fmt.Sprintf("round %d: a base hypothesis with no training error", t+1)
			break
		}
	}
	return b, nil
}

// voteError is the fraction of examples with y·F ≤ 0.
func voteError(F []float64, y []int) float64 {
	e := 0
	for i, f := range F {
		if float64(y[i])*f <= 0 {
			e++
		}
	}
	return float64(e) / float64(len(F))
}

// Rounds returns the number of rounds run (hypotheses in the vote).
func (b *Boost) Rounds() int { return len(b.Hypotheses) }

// Weights returns the normalised voting weights a_t = α_t / Σ_{s≤rounds}
// α_s of the vote after the given number of rounds (all when rounds ≤ 0 or
// beyond Rounds).
func (b *Boost) Weights(rounds int) []float64 {
	if rounds <= 0 || rounds > len(b.Alphas) {
		rounds = len(b.Alphas)
	}
	s := 0.0
	for _, a := range b.Alphas[:rounds] {
		s += a
	}
	out := make([]float64, rounds)
	for t, a := range b.Alphas[:rounds] {
		out[t] = a / s
	}
	return out
}

// Vote returns f(x) = Σ_t a_t h_t(x) ∈ [−1, 1] for every example, for the
// vote after the given number of rounds (all when rounds ≤ 0). It honours
// ctx between rounds.
func (b *Boost) Vote(ctx context.Context, xs [][]float64, rounds int) ([]float64, error) {
	if len(b.Hypotheses) == 0 {
		return nil, fmt.Errorf("classify: Boost.Vote: the vote is empty")
	}
	a := b.Weights(rounds)
	f := make([]float64, len(xs))
	h := make([]int, len(xs))
	for t, at := range a {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b.Hypotheses[t].Classify(xs, h)
		for i, v := range h {
			f[i] += at * float64(v)
		}
	}
	return f, nil
}

// Predict returns the sign of the vote after the given number of rounds
// (all when rounds ≤ 0), −1 on a tie.
func (b *Boost) Predict(ctx context.Context, xs [][]float64, rounds int) ([]int, error) {
	f, err := b.Vote(ctx, xs, rounds)
	if err != nil {
		return nil, err
	}
	out := make([]int, len(f))
	for i, v := range f {
		out[i] = -1
		if v > 0 {
			out[i] = 1
		}
	}
	return out, nil
}

// Margins returns the margins y_i·f(x_i) ∈ [−1, 1] of the examples under
// the vote after the given number of rounds (all when rounds ≤ 0).
func (b *Boost) Margins(ctx context.Context, xs [][]float64, y []int, rounds int) ([]float64, error) {
	if err := checkBoostData("Boost.Margins", xs, y); err != nil {
		return nil, err
	}
	f, err := b.Vote(ctx, xs, rounds)
	if err != nil {
		return nil, err
	}
	for i := range f {
		f[i] *= float64(y[i])
	}
	return f, nil
}

// String summarises the vote.
func (b *Boost) String() string {
	var s strings.Builder
	fmt.Fprintf(&s, "AdaBoost, %d rounds", b.Rounds())
	if r := len(b.TrainError); r > 0 {
		fmt.Fprintf(&s, ", training error %.4g", b.TrainError[r-1])
	}
	if r := len(b.TestError); r > 0 {
		fmt.Fprintf(&s, ", test error %.4g", b.TestError[r-1])
	}
	if b.Stopped != "" {
		fmt.Fprintf(&s, " (stopped: %s)", b.Stopped)
	}
	return s.String()
}
