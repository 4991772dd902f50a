package data

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
)

// SynthOptions configures SyntheticACSIncome. The zero value gives the
// defaults.
type SynthOptions struct {
	// PositiveShare is the expected share of positive labels; 0 means
	// 0.3830, the 2018 1-Year ACSIncome share of the six states (CA, TX,
	// NY, FL, PA, IL) whose 668,859 rows the IWP paper uses.
	PositiveShare float64
	// Coef are the logistic-model coefficients of the label on the
	// standardised AGEP, SCHL, WKHP and SEX; all zero means (0.62, 0.92,
	// 0.92, −0.32), the fit on the real 2024 ACSIncome rows (FOLKTABLES.md §5).
	Coef [4]float64
}

// Marginals used by the synthetic generator (FOLKTABLES.md §5: 2018
// published moments of AGEP and WKHP, 2024 real-data shares of the
// categorical variables).
var (
	// AGEP quantile function: piecewise linear through the published
	// 5/25/50/75/95 % quantiles 20/30/43/56/68 within [17, 90].
	synthAgeQ = [][2]float64{{0, 17}, {0.05, 20}, {0.25, 30}, {0.5, 43}, {0.75, 56}, {0.95, 68}, {1, 90}}
	// SCHL ≤ 15 has total share 0.071, spread as 15 % on code 1, 25 % evenly
	// on 2–11 and 60 % evenly on 12–15 (an assumption: only the total is published).
	synthSCHL = func() []float64 {
		w := make([]float64, 25)
		w[1] = 0.071 * 0.15
		for c := 2; c <= 11; c++ {
			w[c] = 0.071 * 0.25 / 10
		}
		for c := 12; c <= 15; c++ {
			w[c] = 0.071 * 0.60 / 4
		}
		for c, v := range map[int]float64{16: 0.210, 17: 0.034, 18: 0.069, 19: 0.129, 20: 0.094, 21: 0.237, 22: 0.112, 23: 0.026, 24: 0.020} {
			w[c] = v
		}
		return w
	}()
	synthCOW   = []float64{0, 0.632, 0.100, 0.081, 0.044, 0.036, 0.061, 0.043, 0.003}
	synthMAR   = []float64{0, 0.539, 0.022, 0.101, 0.014, 0.325}
	synthRAC1P = []float64{0, 0.719, 0.085, 0.003, 0.001, 0.002, 0.052, 0.006, 0.042, 0.090}
)

// synthOCCP are 530 occupation codes 0010, 0028, … in the OCCP range,
// drawn with Zipf-like weights 1/rank^1.1 over a fixed shuffled order.
var synthOCCP, synthOCCPw = func() ([]float64, []float64) {
	codes := make([]float64, 530)
	for k := range codes {
		codes[k] = float64(10 + 18*k)
	}
	rng := rand.New(rand.NewPCG(2018, 530))
	rng.Shuffle(len(codes), func(i, j int) { codes[i], codes[j] = codes[j], codes[i] })
	w := make([]float64, len(codes))
	for k := range w {
		w[k] = math.Pow(float64(k+1), -1.1)
	}
	return codes, w
}()

// SyntheticACSIncome draws n rows that mimic Folktables' ACSIncome on the
// features of ACSIncomeFeatures (AGEP, COW, SCHL, MAR, OCCP, WKHP, SEX,
// RAC1P) with a 0/1 label, using no real records. It is the embedded
// default of the ACS experiments.
//
// Calibration (FOLKTABLES.md §5): SEX is male with probability 0.517;
// AGEP follows the published 2018 quantiles (5/25/50/75/95 % =
// 20/30/43/56/68, range 17–90, piecewise-linear quantile function);
// WKHP is 40 with probability 0.448 and otherwise a rounded normal with
// mean 36.92 and sd 17.4 clipped to 1–99, which gives the published 46 %
// at exactly 40, mean 38.3 and sd ≈13; SCHL, COW, MAR and RAC1P follow the published 2024
// shares; OCCP is Zipf-like over 530 codes. The label is Bernoulli with
// the logistic model of opt.Coef on the standardised AGEP, SCHL, WKHP and
// SEX (means/sds 43.8/15.7, 18.8/3.29, 37.6/12.99, 1.48/0.50), whose
// intercept is solved by bisection on the first min(n, 50 000) drawn rows
// so that the expected positive share is opt.PositiveShare.
func SyntheticACSIncome(n int, opt SynthOptions, rng *rand.Rand) (*Dataset, error) {
	if n < 1 {
		return nil, fmt.Errorf("data: SyntheticACSIncome: n = %d, need n >= 1", n)
	}
	share := opt.PositiveShare
	if share == 0 {
		share = 0.3830
	}
	if !(share > 0 && share < 1) {
		return nil, fmt.Errorf("data: SyntheticACSIncome: PositiveShare = %v, need 0 < share < 1", share)
	}
	coef := opt.Coef
	if coef == [4]float64{} {
		coef = [4]float64{0.62, 0.92, 0.92, -0.32}
	}
	d := len(ACSIncomeFeatures)
	ds := &Dataset{X: make([]float64, n*d), Y: make([]float64, n), Names: append([]string(nil), ACSIncomeFeatures...), Target: "PINCP>50000"}
	schl, cow, mar, rac, occ := newAlias(synthSCHL), newAlias(synthCOW), newAlias(synthMAR), newAlias(synthRAC1P), newAlias(synthOCCPw)
	lin := make([]float64, n)
	for i := range n {
		sex := 2.0
		if rng.Float64() < 0.517 {
			sex = 1
		}
		age := math.Floor(quantile(synthAgeQ, rng.Float64()))
		s := float64(schl.draw(rng))
		w := 40.0
		if rng.Float64() >= 0.448 {
			w = math.Max(1, math.Min(99, math.Round(36.92+17.4*rng.NormFloat64())))
		}
		row := ds.X[i*d : (i+1)*d]
		row[0], row[1], row[2], row[3] = age, float64(cow.draw(rng)), s, float64(mar.draw(rng))
		row[4], row[5], row[6], row[7] = synthOCCP[occ.draw(rng)], w, sex, float64(rac.draw(rng))
		lin[i] = coef[0]*(age-43.8)/15.7 + coef[1]*(s-18.8)/3.29 + coef[2]*(w-37.6)/12.99 + coef[3]*(sex-1.48)/0.50
	}
	b := solveIntercept(lin[:min(n, 50000)], share)
	for i, v := range lin {
		if rng.Float64() < 1/(1+math.Exp(-(b+v))) {
			ds.Y[i] = 1
		}
	}
	return ds, nil
}

// quantile evaluates a piecewise-linear quantile function at u.
func quantile(q [][2]float64, u float64) float64 {
	k := sort.Search(len(q), func(i int) bool { return q[i][0] >= u })
	if k == 0 {
		return q[0][1]
	}
	if k >= len(q) {
		return q[len(q)-1][1]
	}
	a, b := q[k-1], q[k]
	return a[1] + (u-a[0])/(b[0]-a[0])*(b[1]-a[1])
}

// alias is Walker's alias table for drawing an index with given weights.
type alias struct {
	prob  []float64
	alias []int
}

func newAlias(w []float64) *alias {
	n := len(w)
	var sum float64
	for _, v := range w {
		sum += v
	}
	a := &alias{prob: make([]float64, n), alias: make([]int, n)}
	scaled := make([]float64, n)
	var small, large []int
	for i, v := range w {
		scaled[i] = v * float64(n) / sum
		if scaled[i] < 1 {
			small = append(small, i)
		} else {
			large = append(large, i)
		}
	}
	for len(small) > 0 && len(large) > 0 {
		s, l := small[len(small)-1], large[len(large)-1]
		small = small[:len(small)-1]
		a.prob[s], a.alias[s] = scaled[s], l
		scaled[l] -= 1 - scaled[s]
		if scaled[l] < 1 {
			large = large[:len(large)-1]
			small = append(small, l)
		}
	}
	for _, i := range append(small, large...) {
		a.prob[i], a.alias[i] = 1, i
	}
	return a
}

func (a *alias) draw(rng *rand.Rand) int {
	i := rng.IntN(len(a.prob))
	if rng.Float64() < a.prob[i] {
		return i
	}
	return a.alias[i]
}

// SyntheticPublicCoverageFeatures are the features SyntheticACSPublicCoverage
// draws, a subset of ACSPublicCoverageFeatures.
var SyntheticPublicCoverageFeatures = []string{"AGEP", "SCHL", "MAR", "SEX", "DIS", "PINCP", "ESR", "RAC1P"}

var (
	// AGEP within the public-coverage universe (15–64; mean 35.6, median 33).
	pubAgeQ = [][2]float64{{0, 15}, {0.25, 21}, {0.5, 33}, {0.75, 49}, {1, 65}}
	// PINCP: 25 % at or below 0, median 5,700, capped at 30,000 by the filter.
	pubIncQ = [][2]float64{{0, -19998}, {0.03, 0}, {0.25, 0}, {0.5, 5700}, {0.75, 15500}, {1, 30000}}
	// SCHL, MAR shares (assumed: only the ACSIncome shares are published).
	pubSCHL = func() []float64 {
		w := make([]float64, 25)
		for c := 1; c <= 15; c++ {
			w[c] = 0.15 / 15
		}
		for c, v := range map[int]float64{16: 0.25, 17: 0.05, 18: 0.08, 19: 0.17, 20: 0.08, 21: 0.15, 22: 0.05, 23: 0.01, 24: 0.01} {
			w[c] = v
		}
		return w
	}()
	pubMAR = []float64{0, 0.25, 0.02, 0.10, 0.03, 0.60}
	// ESR: 40 % employed at work, 48 % not in the labour force (published).
	pubESR = []float64{0, 0.40, 0.02, 0.095, 0.005, 0, 0.48}
)

// SyntheticACSPublicCoverage draws n rows that mimic Folktables'
// ACSPublicCoverage on SyntheticPublicCoverageFeatures with a 0/1 label
// (PUBCOV), using no real records.
//
// Calibration (FOLKTABLES.md §5, 2024 universe): 56 % female; AGEP in 15–64
// with median 33 and mean ≈35.6 (piecewise-linear quantiles); PINCP with
// 25 % at or below 0, median 5,700, at most 30,000; DIS = 1 for 18.7 %;
// ESR 40 % employed at work and 48 % not in the labour force; RAC1P as in
// SyntheticACSIncome. SCHL and MAR shares are assumptions. No fitted model
// is published for this task, so the label's logistic model is ours, with
// the usual directions: +0.9 for a disability, +0.6 when not in the labour
// force, −0.5 when employed, −0.5 per sd of PINCP, −0.3 per sd of SCHL,
// −0.2 per sd of AGEP, +0.15 for women; the intercept is solved so that
// the expected positive share is share (0 means 0.298, the 2018
// US-wide share implied by the Folktables paper).
func SyntheticACSPublicCoverage(n int, share float64, rng *rand.Rand) (*Dataset, error) {
	if n < 1 {
		return nil, fmt.Errorf("data: SyntheticACSPublicCoverage: n = %d, need n >= 1", n)
	}
	if share == 0 {
		share = 0.298
	}
	if !(share > 0 && share < 1) {
		return nil, fmt.Errorf("data: SyntheticACSPublicCoverage: share = %v, need 0 < share < 1", share)
	}
	d := len(SyntheticPublicCoverageFeatures)
	ds := &Dataset{X: make([]float64, n*d), Y: make([]float64, n), Names: append([]string(nil), SyntheticPublicCoverageFeatures...), Target: "PUBCOV==1"}
	schl, mar, esr, rac := newAlias(pubSCHL), newAlias(pubMAR), newAlias(pubESR), newAlias(synthRAC1P)
	lin := make([]float64, n)
	for i := range n {
		sex := 1.0
		if rng.Float64() < 0.56 {
			sex = 2
		}
		age := math.Min(64, math.Floor(quantile(pubAgeQ, rng.Float64())))
		s := float64(schl.draw(rng))
		dis := 2.0
		if rng.Float64() < 0.187 {
			dis = 1
		}
		inc := math.Round(quantile(pubIncQ, rng.Float64()))
		if inc > -0.5 && inc < 0.5 {
			inc = 0
		}
		e := float64(esr.draw(rng))
		row := ds.X[i*d : (i+1)*d]
		row[0], row[1], row[2], row[3] = age, s, float64(mar.draw(rng)), sex
		row[4], row[5], row[6], row[7] = dis, inc, e, float64(rac.draw(rng))
		v := -0.2*(age-35.6)/16.2 - 0.3*(s-17.5)/4 - 0.5*(inc-7500)/9000
		if dis == 1 {
			v += 0.9
		}
		switch e {
		case 6:
			v += 0.6
		case 1, 2, 4, 5:
			v -= 0.5
		}
		if sex == 2 {
			v += 0.15
		}
		lin[i] = v
	}
	b := solveIntercept(lin[:min(n, 50000)], share)
	for i, v := range lin {
		if rng.Float64() < 1/(1+math.Exp(-(b+v))) {
			ds.Y[i] = 1
		}
	}
	return ds, nil
}

// solveIntercept returns b with mean(sigmoid(b + lin)) = share, by bisection.
func solveIntercept(lin []float64, share float64) float64 {
	lo, hi := -20.0, 20.0
	for range 60 {
		mid := (lo + hi) / 2
		var m float64
		for _, v := range lin {
			m += 1 / (1 + math.Exp(-(mid + v)))
		}
		if m/float64(len(lin)) < share {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}
