// Package mech provides local differential privacy (LDP) mechanisms, their
// privacy guarantees, calibration, composition, a budget accountant and an
// empirical privacy auditor.
//
// # Guarantees
//
// Guarantee is an (ε, δ) pair in a stated model (Local, the zero value,
// or Central for PMW and its Laplace-per-query baseline) that validates and
// renders itself (String, Markdown, LaTeX; "-LDP" or "-DP"). Compose is
// basic sequential composition;
// ComposeAdvanced is the Dwork–Rothblum–Vadhan bound and ComposeLN the
// looser variant of the lecture notes; ComposeGaussians is the exact
// composition of Gaussian mechanisms. An Accountant keeps a per-individual
// budget and refuses a charge that would exceed it, and a central charge to
// a local budget.
//
// # Mechanisms
//
// Every mechanism knows its input domain and its guarantee and implements
// Mechanism. Most have two constructors: from a budget, calibrating the
// noise (NewLaplace, NewGaussian, NewRandomizedResponse, NewGRR,
// NewHistogramEncoding, NewCubeHistogram, NewVoronoiCell,
// NewFeatureLabelRelease), and from the noise, reporting the guarantee it
// gives (LaplaceFromScale, GaussianFromSigma, RandomizedResponseFromKeep,
// HistogramEncodingFromScale, CubeHistogramFromScale, VoronoiCellFromSigma,
// FeatureLabelReleaseFrom).
//
//   - Laplace: vector Laplace mechanism, ℓ1 sensitivity, scale Δ₁/ε.
//   - Gaussian: analytic calibration (Balle–Wang, any ε; AnalyticSigma and
//     the cross-check AnalyticSigmaBW) or classical (refused for ε ≥ 1);
//     GaussianDelta is the exact privacy profile, GaussianEpsilon its
//     inverse.
//   - RandomizedResponse: binary RR with Debias (coth(ε/2)·ỹ) and the
//     proportion estimator; GRR: k-ary RR with Estimate and the WBLJ
//     Variance; HistogramEncoding: Laplace on one-hot vectors.
//   - CubeHistogram: the Berrett–Butucea mechanism on [0, 1]^d, released on
//     the data-independent index set {0, ..., ⌈1/h⌉}^d.
//   - VoronoiCell: the private Proto-NN mechanism (LabelOnly and
//     WithIndicators variants).
//   - FeatureLabelRelease: the one-shot release of IWP-SGD (Gaussian
//     features from a box, RR labels), guarantee (ε_X + ε_Y, δ).
//
// Inputs outside a mechanism's domain are an error naming the value, unless
// the caller chose the Clip policy.
//
// Noise scales follow the scale parametrisation: a Laplace variable of scale
// b has density exp(-|z|/b)/(2b) and variance 2b². ScaleFromRate and
// ScaleFromStd convert from the other parametrisations found in papers.
//
// # Real releases and simulations
//
// Every Release takes a *rand.Rand, and the rng says what the call is:
//
//   - nil: a real release. Noise comes from SecureRand (ChaCha8 keyed from
//     crypto/rand, no seed anywhere) through exact samplers: the discrete
//     Laplace and discrete Gaussian of Canonne, Kamath and Steinke (2020)
//     (SampleDiscreteLaplace, SampleDiscreteGaussian, BernoulliExp), on a
//     power-of-two output grid for real-valued data (DiscreteLaplace,
//     DiscreteGaussian, ExactLaplaceNoise). Each mechanism's exact path is
//     calibrated so that its guarantee, grid and discreteness included, is
//     within the mechanism's Guarantee. Randomized response and k-RR are
//     exact at every ε whatever the rng; only the batch simulations of
//     randomized response (ReleaseBatch, FeatureLabelRelease.Release)
//     compare one 64-bit word with the flip probability, within 2^-32
//     relative, below ε ≈ 22.
//   - a seeded *rand.Rand (rand.NewPCG): a simulation, reproducible from the
//     seed, with floating-point noise (ziggurat, ExpFloat64) that matches the
//     continuous distribution to double precision but can leak the input
//     through its low-order bits (Mironov 2012; TestAuditFloatingPointLeak
//     shows the auditor seeing it). SetExact makes a mechanism use the exact
//     path with a seeded rng, to simulate or audit the real release.
//
// Batch simulations (FeatureLabelRelease.Release, Gaussian.ReleaseBatch,
// Laplace.ReleaseBatch, RandomizedResponse.ReleaseBatch) take a seed: the
// records are cut into blocks of BlockRows and block i draws from its own
// xoshiro256++ stream BlockRNG(seed, i), so a release is the same whatever the
// number of workers; blocks run in parallel, honour a context.Context and
// report to a progress.Reporter. FeatureLabelRelease.ReleaseExact is the
// real batch release: exact samplers, one SecureRand per block, no seed.
//
// # Auditing
//
// Audit runs the histogram test of DP (after Google's VerifyApproximateDp,
// with held-out evaluation and a ballot of seeds) on samples of a mechanism
// at two neighbouring inputs, and reports pass/fail with an empirical lower
// bound on ε. DensityAudit checks the exact privacy loss of mechanisms with
// densities. The Audit* and *Loss helpers build the samplers for every
// mechanism here; deliberately under-noised variants (built with the
// from-noise constructors) fail both audits.
package mech
