// Package iwp implements Inverse Weierstrass Private SGD (IWP-SGD):
// learning a generalised linear model from a one-shot locally private
// release of features and labels without the bias that plain SGD on the
// noisy data suffers.
//
// A release adds Gaussian noise of standard deviation σ to every feature
// (x̃ = x + σN) and flips every ±1 label with probability 1/(1+e^εY)
// (randomized response). The expected loss on the release is then a
// Weierstrass transform (Gaussian smoothing) in x followed by a Bernoulli
// transform in y of the loss on the clean data. IWP-SGD undoes both
// transforms: it trains on
//
//	ℓᴵᵂᴾ(θ; x̃, ỹ) = (e^εY·W⁻¹σ[ℓ(θ;·,ỹ)](x̃) − W⁻¹σ[ℓ(θ;·,−ỹ)](x̃)) / (e^εY − 1),
//
// an unbiased estimate of the clean loss ℓ(θ; x, y), and of its gradient.
// For a generalised linear loss ℓ = φ(⟨θ,x⟩, y) the inverse transform has a
// one-dimensional form in s = σ‖θ‖ (see Loss).
//
// The package gives the transforms (Bernoulli, BernoulliInv,
// PolyWeierstrass, PolyWeierstrassInv, Weierstrass by Monte Carlo, and
// Loss.W / Loss.InvW for the margin functions), three losses (Quadratic,
// Exponential, Logistic with a truncated series of order K and
// TruncationStats to choose K), the per-example IWP and naive losses and
// gradients, the regression variant (RegressionGrad, RegressionLoss,
// NewRegressionRelease), a single-pass mini-batch SGD with L2
// regularisation and projection on a ball (SGD), and an experiment driver
// (Experiment) that compares clean, naive and IWP training over repeated
// noise draws in parallel, reproducibly whatever the number of workers,
// with test-risk and accuracy trajectories, the averaged model and Welch
// tests (Result.Table, Result.Summary). A release comes from any Releaser,
// such as mech.FeatureLabelRelease (calibrated to a budget) or
// NewNoiseRelease (given noise levels); both are BlockReleasers, which the
// driver trains on block by block as each block is drawn, with the same
// results as on the whole release.
//
// Reference: J. Dufraiche, P. Mangold, M. Perrot, M. Tommasi, "Learning with
// Locally Private Examples by Inverse Weierstrass Private Stochastic
// Gradient Descent", arXiv:2602.16436 (2026).
package iwp
