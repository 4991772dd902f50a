package mech

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
)

// Sampler fills dst with independent outputs of a mechanism run on one
// fixed input, each reduced to a scalar. Reducing an output is
// post-processing, so a correct mechanism stays (ε, δ)-private on the
// scalars; the most powerful reduction is the privacy-loss statistic (see
// the Audit* helpers).
type Sampler func(rng *rand.Rand, dst []float64) error

// AuditConfig sets the effort and thresholds of Audit. Zero fields take the
// defaults shown.
type AuditConfig struct {
	Samples    int     // outputs per input per vote (default 200 000)
	Buckets    int     // histogram buckets (default 100)
	Votes      int     // ballot size, odd (default 3)
	Seed       uint64  // seed of the ballot (default 1)
	Z          float64 // a vote fails when the held-out statistic exceeds δ + Z·se (default 4)
	Confidence float64 // level of the lower confidence bound on ε (default 0.95)
}

func (c AuditConfig) withDefaults() AuditConfig {
	if c.Samples <= 0 {
		c.Samples = 200000
	}
	if c.Buckets <= 0 {
		c.Buckets = 100
	}
	if c.Votes <= 0 {
		c.Votes = 3
	}
	if c.Votes%2 == 0 {
		c.Votes++
	}
	if c.Seed == 0 {
		c.Seed = 1
	}
	if c.Z <= 0 {
		c.Z = 4
	}
	if !(c.Confidence > 0 && c.Confidence < 1) {
		c.Confidence = 0.95
	}
	return c
}

// AuditVote is the outcome of one vote of the ballot.
type AuditVote struct {
	Statistic  float64 // held-out histogram statistic, worse direction
	Tolerance  float64 // δ + Z·se for that direction
	EpsLower   float64 // held-out estimate of ε on the selected event
	EpsLowerCI float64 // its lower confidence bound
	Delta      float64 // in-sample statistic Σ_r max(0, (c_a − e^ε c_b)/N), worse direction
	Pass       bool    // the held-out statistic was within tolerance in both directions
}

// AuditReport is the outcome of Audit: whether the claimed guarantee
// survived the histogram test, and an empirical lower bound on ε.
type AuditReport struct {
	Claimed       Guarantee   // the guarantee under test
	Samples       int         // outputs per input per vote
	EpsLower      float64     // median over votes of the estimated ε on the most revealing event
	EpsLowerCI    float64     // median over votes of its lower confidence bound (at Confidence)
	Confidence    float64     // confidence level of EpsLowerCI
	DeltaEstimate float64     // median over votes of the in-sample histogram statistic
	PassVotes     int         // votes passed
	Votes         []AuditVote // per-vote details
	Pass          bool        // a majority of votes passed
}

// Audit runs the histogram test of DP (spec check C18, after Google's
// VerifyApproximateDp with a ballot) on a mechanism's outputs at two
// neighbouring inputs, sampled by a and b, against the claimed guarantee.
//
// Each vote draws Samples outputs per input and bucketises them (shared
// equal-width buckets between the pooled 0.1% and 99.9% quantiles, or one
// bucket per value for outputs with few distinct values). The statistic
// Σ_r max(0, (c_a(r) − e^ε c_b(r))/N) equals (P̂_a(E) − e^ε P̂_b(E)) for the
// union E of buckets where the first count wins, so its in-sample value is
// biased upward by that selection. The vote therefore selects E on one half
// of the samples and evaluates the statistic on the other half, where it is
// unbiased with a known standard error se; the vote passes when the held-out
// statistic is at most δ + Z·se in both directions. The ballot passes when a
// majority of votes pass.
//
// The empirical lower bound on ε is found the same way: among single
// buckets, tails and E, the event with the best lower confidence bound on
// ln((P_a(E) − δ)/P_b(E)) on the first half is evaluated on the second half,
// in both directions.
func Audit(a, b Sampler, claimed Guarantee, cfg AuditConfig) (AuditReport, error) {
	if err := claimed.Validate(); err != nil {
		return AuditReport{}, err
	}
	if a == nil || b == nil {
		return AuditReport{}, fmt.Errorf("mech: Audit needs two samplers")
	}
	cfg = cfg.withDefaults()
	if cfg.Samples < 100 {
		return AuditReport{}, fmt.Errorf("mech: Audit Samples = %d, want at least 100", cfg.Samples)
	}
	rep := AuditReport{Claimed: claimed, Samples: cfg.Samples, Confidence: cfg.Confidence}
	xa := make([]float64, cfg.Samples)
	xb := make([]float64, cfg.Samples)
	for v := 0; v < cfg.Votes; v++ {
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(v)))
		if err := a(rng, xa); err != nil {
			return AuditReport{}, err
		}
		if err := b(rng, xb); err != nil {
			return AuditReport{}, err
		}
		for k, xs := range [][]float64{xa, xb} {
			for i, x := range xs {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					return AuditReport{}, fmt.Errorf("mech: Audit: sampler %c returned %v at index %d (vote %d), want finite outputs", "ab"[k], x, i, v)
				}
			}
		}
		vote := auditVote(xa, xb, claimed, cfg)
		if vote.Pass {
			rep.PassVotes++
		}
		rep.Votes = append(rep.Votes, vote)
	}
	med := func(f func(AuditVote) float64) float64 {
		s := make([]float64, len(rep.Votes))
		for i, v := range rep.Votes {
			s[i] = f(v)
		}
		slices.Sort(s)
		return s[len(s)/2]
	}
	rep.EpsLower = med(func(v AuditVote) float64 { return v.EpsLower })
	rep.EpsLowerCI = med(func(v AuditVote) float64 { return v.EpsLowerCI })
	rep.DeltaEstimate = med(func(v AuditVote) float64 { return v.Delta })
	rep.Pass = 2*rep.PassVotes > cfg.Votes
	return rep, nil
}

// buckets maps scalars to histogram buckets.
type buckets struct {
	lo, width float64
	n         int
	values    []float64 // categorical: sorted distinct values (bucket = nearest)
}

func newBuckets(xa, xb []float64, nb int) buckets {
	m := min(len(xa), 20000)
	pool := make([]float64, 0, 2*m)
	pool = append(pool, xa[:m]...)
	pool = append(pool, xb[:min(len(xb), 20000)]...)
	slices.Sort(pool)
	distinct := slices.Compact(slices.Clone(pool))
	if len(distinct) <= nb {
		return buckets{values: distinct, n: len(distinct)}
	}
	lo := pool[int(0.001*float64(len(pool)))]
	hi := pool[int(0.999*float64(len(pool)))]
	if !(hi > lo) {
		lo, hi = pool[0], pool[len(pool)-1]
	}
	return buckets{lo: lo, width: (hi - lo) / float64(nb), n: nb}
}

func (bk buckets) index(x float64) int {
	if bk.values != nil {
		i := sort.SearchFloat64s(bk.values, x)
		if i == len(bk.values) || (i > 0 && x-bk.values[i-1] < bk.values[i]-x) {
			i--
		}
		return i
	}
	i := int(math.Floor((x - bk.lo) / bk.width))
	return max(0, min(bk.n-1, i))
}

func (bk buckets) count(xs []float64) []float64 {
	c := make([]float64, bk.n)
	for _, x := range xs {
		c[bk.index(x)]++
	}
	return c
}

func auditVote(xa, xb []float64, g Guarantee, cfg AuditConfig) AuditVote {
	bk := newBuckets(xa, xb, cfg.Buckets)
	h := len(xa) / 2
	sa, sb := bk.count(xa[:h]), bk.count(xb[:h])
	ta, tb := bk.count(xa[h:]), bk.count(xb[h:])
	fa, fb := make([]float64, bk.n), make([]float64, bk.n)
	for i := range fa {
		fa[i], fb[i] = sa[i]+ta[i], sb[i]+tb[i]
	}
	vote := AuditVote{Pass: true}
	first := true
	for dir := 0; dir < 2; dir++ {
		p, q, tp, tq, fp, fq := sa, sb, ta, tb, fa, fb
		if dir == 1 {
			p, q, tp, tq, fp, fq = sb, sa, tb, ta, fb, fa
		}
		stat, tol := heldOutStatistic(p, q, tp, tq, g, cfg.Z)
		if !(stat <= tol) {
			vote.Pass = false
		}
		if first || stat-tol > vote.Statistic-vote.Tolerance {
			vote.Statistic, vote.Tolerance = stat, tol
		}
		first = false
		vote.Delta = math.Max(vote.Delta, histogramStatistic(fp, fq, g.Epsilon))
		if est, ci := epsLower(p, q, tp, tq, g.Delta, cfg.Confidence); dir == 0 || ci > vote.EpsLowerCI {
			vote.EpsLower, vote.EpsLowerCI = est, ci
		}
	}
	return vote
}

// histogramStatistic returns Σ_r max(0, (p_r − e^ε q_r)/N).
func histogramStatistic(p, q []float64, eps float64) float64 {
	n := sum(p)
	e := math.Exp(eps)
	s := 0.0
	for i := range p {
		s += math.Max(0, p[i]-e*q[i])
	}
	return s / n
}

// heldOutStatistic selects E = {r: p_r > e^ε q_r} on the selection counts
// and returns (P̂_a(E) − e^ε P̂_b(E)) on the test counts with its tolerance
// δ + z·se.
func heldOutStatistic(p, q, tp, tq []float64, g Guarantee, z float64) (stat, tol float64) {
	e := math.Exp(g.Epsilon)
	var ca, cb float64
	for i := range p {
		if p[i] > e*q[i] {
			ca += tp[i]
			cb += tq[i]
		}
	}
	n := sum(tp)
	pa, pb := ca/n, cb/n
	se := math.Sqrt(pa*(1-pa)+e*e*pb*(1-pb)) / math.Sqrt(n)
	se = math.Max(se, 1/n)
	return pa - e*pb, g.Delta + z*se
}

// epsLower picks, on the selection counts, the event (single bucket, left
// or right tail) with the best lower confidence bound on ln((P_a − δ)/P_b)
// and evaluates it on the test counts.
func epsLower(p, q, tp, tq []float64, delta, conf float64) (est, ci float64) {
	z := normalQuantile(conf)
	n := sum(p)
	nt := sum(tp)
	bound := func(ca, cb, n float64) (float64, float64) {
		// Haldane's correction keeps the log finite.
		pa, pb := (ca+0.5)/(n+1), (cb+0.5)/(n+1)
		if pa-delta <= 0 {
			return 0, 0
		}
		e := math.Log((pa - delta) / pb)
		se := math.Sqrt(pa*(1-pa)/(n*(pa-delta)*(pa-delta)) + (1-pb)/(n*pb))
		return e, e - z*se
	}
	best, bi, bj := math.Inf(-1), 0, 0
	try := func(i, j int) { // event = buckets [i, j)
		ca, cb := sum(p[i:j]), sum(q[i:j])
		if _, lb := bound(ca, cb, n); lb > best {
			best, bi, bj = lb, i, j
		}
	}
	k := len(p)
	for i := 0; i < k; i++ {
		try(i, i+1)
		try(0, i+1)
		try(i, k)
	}
	est, ci = bound(sum(tp[bi:bj]), sum(tq[bi:bj]), nt)
	return math.Max(0, est), math.Max(0, ci)
}

func sum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

// normalQuantile returns Φ⁻¹(p) = −√2·erfc⁻¹(2p), accurate to 1e-9 for
// |Φ⁻¹(p)| ≤ 5 (the auditor's confidence levels).
func normalQuantile(p float64) float64 { return -math.Sqrt2 * math.Erfcinv(2*p) }

// String summarises the report.
func (r AuditReport) String() string {
	verdict := "PASS"
	if !r.Pass {
		verdict = "FAIL"
	}
	return fmt.Sprintf("privacy audit %s: claimed %v; %d/%d votes passed; δ̂ = %.3g; empirical ε̂ = %.4g (%.0f%% lower confidence bound %.4g); %d samples per input per vote",
		verdict, r.Claimed, r.PassVotes, len(r.Votes), r.DeltaEstimate, r.EpsLower, 100*r.Confidence, r.EpsLowerCI, r.Samples)
}

// Markdown renders the report with a per-vote table.
func (r AuditReport) Markdown() string {
	var b strings.Builder
	verdict := "**PASS**"
	if !r.Pass {
		verdict = "**FAIL**"
	}
	fmt.Fprintf(&b, "Privacy audit %s for claimed %s: %d of %d votes passed, %d samples per input per vote.\n\n",
		verdict, r.Claimed.Markdown(), r.PassVotes, len(r.Votes), r.Samples)
	fmt.Fprintf(&b, "Empirical $\\hat\\varepsilon = %.4g$ (%.0f%% lower confidence bound $%.4g$), $\\hat\\delta = %.3g$.\n\n",
		r.EpsLower, 100*r.Confidence, r.EpsLowerCI, r.DeltaEstimate)
	b.WriteString("| vote | held-out statistic | tolerance | $\\hat\\varepsilon$ | lower bound | pass |\n|---|---|---|---|---|---|\n")
	for i, v := range r.Votes {
		fmt.Fprintf(&b, "| %d | %.3g | %.3g | %.4g | %.4g | %v |\n", i+1, v.Statistic, v.Tolerance, v.EpsLower, v.EpsLowerCI, v.Pass)
	}
	return b.String()
}
