// Package classify implements binary classifiers that learn from locally
// differentially private data, and the tools to study them:
//
//   - the Berrett–Butucea histogram rule (BB), built on the overlapping-cube
//     indicator mechanism mech.CubeHistogram, with its bandwidth rule;
//   - Proto-NN (Györfi–Weiss) on a Voronoi partition given by prototypes in
//     any metric space, public, and private (Györfi–Kroll–Walk) on the
//     Voronoi-cell mechanism mech.VoronoiCell;
//   - synthetic problems with a known regression function η, accuracy,
//     excess risk, and rate studies fitting the log-log slope of excess risk
//     against nα².
//
// # Labels
//
// The papers code labels differently and this package keeps their
// conventions: BB uses y ∈ {0, 1}, Proto-NN uses y ∈ {−1, +1}. ToPlusMinus and
// ToBinary convert; fitting functions reject labels in the other coding.
// Evaluation functions (Accuracy, ExcessRisk) accept both: 1 is the positive
// class, 0 and −1 the negative one.
//
// # Fast simulation
//
// Both private classifiers use only per-cell sums of the released values.
// A sum of n i.i.d. Laplace(b) variables has the law of G₁ − G₂ with G₁, G₂
// independent Gamma(n, b) variables, so a simulation may draw two Gamma
// variables per cell instead of n Laplace variables per cell (n·k draws).
// The fitted classifier then has exactly the law it has under the
// per-individual release; tests compare the two with a two-sample test. Each
// fitting function offers both (Options.Exact selects the per-individual
// release through the mechanism itself).
//
// # Real releases
//
// A nil rng makes NewBB, NewPrivateProtoNN and PrivateProtoNNFromCells a
// real release: every individual's report goes through the mechanism's
// exact path (discrete Laplace on a grid, mech.ExactLaplaceNoise) from a
// secure source (mech.SecureRand), and nothing can be recomputed from a
// seed. A seeded rng simulates, for studies and teaching.
package classify
