// Package mech provides local differential privacy (LDP) mechanisms, their
// privacy guarantees, calibration, composition, a budget accountant and an
// empirical privacy auditor.
//
// A mechanism knows its input domain and the guarantee it gives. Most have
// two constructors: one from a privacy budget, which calibrates the noise
// (NewLaplace, NewGaussian, NewRandomizedResponse, ...), and one from the
// noise, which reports the guarantee it implies (LaplaceFromScale,
// GaussianFromSigma, ...). Inputs outside the domain are an error naming the
// value, unless the caller chose the Clip policy.
//
// Noise scales follow the scale parametrisation: a Laplace variable of scale
// b has density exp(-|z|/b)/(2b) and variance 2b². ScaleFromRate and
// ScaleFromStd convert from the other parametrisations found in papers.
//
// Randomness comes from an explicit *rand.Rand (math/rand/v2) or, for batch
// releases, from a seed: a batch is cut into fixed-size blocks and block i
// draws from its own PCG stream BlockRNG(seed, i), so a release is the same whatever the
// number of workers.
//
// Floating-point samplers (Laplace from an exponential, Gaussian from a
// ziggurat) are research grade: they reproduce the distributions to double
// precision but, like every naive floating-point sampler, their outputs'
// low-order bits can in principle leak the input (Mironov 2012).
// SampleLaplaceSnapped and the Snapped option of Laplace release on a
// power-of-two grid instead, which removes that leak; see
// SampleLaplaceSnapped.
package mech
