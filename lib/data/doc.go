// Package data provides the tabular data sets of the LDP experiments:
// scikit-learn's make_classification re-implemented (MakeClassification),
// readers for American Community Survey PUMS person files with the
// Folktables tasks ACSIncome and ACSPublicCoverage, the UCI Adult reader,
// Folktables-style synthetic generators that need no download
// (SyntheticACSIncome, SyntheticACSPublicCoverage), data-independent scaling into a box from code-book
// ranges (Box), and a seeded train/test split.
//
// A Dataset stores features as one n×d row-major slice, the layout the
// mechanisms and learners of this module take.
package data
