// Package metric provides metric spaces for nearest-prototype learning:
// built-in metrics on vectors, strings, variable-length series and
// geographic points, combinators that build new metrics from old ones,
// an exact nearest-neighbour index (a vantage-point tree) and Voronoi
// partitions defined by a set of prototypes.
//
// # Spaces and metrics
//
// A point of a vector space, a time series (of any length) or a place
// (latitude and longitude in degrees) is a []float64; its metric implements
// Vector. Strings have their own interface, String. Both have func adapters
// (VectorFunc, StringFunc) so that a metric written in a notebook cell plugs
// in directly:
//
//	m := metric.VectorFunc(func(a, b []float64) float64 { ... })
//
// A call into interpreted code costs a few microseconds, so the index in this
// package is built to make few distance calls: a vantage-point tree, where a
// query among k prototypes costs about log k calls instead of k (15 calls at
// k = 1000 in the plane). For the built-in Euclidean metric in dimension up
// to 16 the index is a k-d tree instead. Its counters (Stats) report the
// calls actually made. Queries run in parallel and stop when their context
// is cancelled.
//
// # Ties
//
// Nearest-prototype queries follow the tie rule of Györfi and Weiss: among
// prototypes at the same distance from the query the one with the lowest
// index wins. The index returns exactly the brute-force answer under this
// rule, provided the distance satisfies the triangle inequality. Distances
// that do not (DTW, Cosine, a Minkowski "distance" with p < 1) report it
// through the Metricity interface and are searched by brute force; a
// function from a cell says so by its adapter (NonMetricFunc instead of
// VectorFunc). While building the tree the index checks the triangle
// inequality on every triple of prototypes its pruning relies on, and
// refuses, naming the points, a distance declared a metric that breaks it;
// while searching it checks the triples of query, vantage point and
// prototype it computes, and a violation makes the query fail instead of
// answering (points it pruned are not checked). Stats.Method says how
// queries are answered.
package metric
