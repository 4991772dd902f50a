// Package generic runs the generic standard library (slices, maps, cmp,
// math/rand/v2's N, sync.OnceValue, iter.Pull, sync/atomic's Pointer)
// for cells. The interpreter cannot run
// generic library code, so the front end (kernel/front, rule genlib)
// rewrites a call such as slices.Sort(xs), whose type arguments the type
// checker inferred, into a call of the function of the same name here,
// which takes its operands as any and is not generic, and asserts the
// result back to its type.
//
// Results are Go's by construction wherever the element type allows:
//
//   - Functions of ordered elements (Sort, BinarySearch, Max, cmp.Compare,
//     ...) see the slice as a slice of its basic kind (a cell type Score
//     int, or time.Duration, has the memory of int or int64) and call the
//     real standard function for that kind, so NaNs, negative zeros and
//     panics are Go's.
//   - SortFunc and SortStableFunc are sort.Slice and sort.SliceStable
//     with the cell's comparison: the same generated algorithms as the
//     slices versions, so the slice goes through the same states and the
//     comparison gets the same calls (tested against the standard
//     functions). The other functions with a comparison or predicate of
//     the cell (MinFunc, IndexFunc, BinarySearchFunc, ...) run the real
//     standard function on the slice of indexes 0..n-1 with the cell's
//     function applied to the elements those indexes name: the cell's
//     function is called with the same arguments in the same order as in
//     Go.
//   - Functions that move elements (Clone, Insert, Delete, Compact, ...)
//     are written with reflect, step for step as the standard functions
//     are specified, with reflect.Append where they append, so lengths,
//     capacities and cleared tails are Go's.
//
// The interpreter hands values of cell types to compiled code with the
// types' structure (a cell struct is a struct of the same fields, a named
// slice of a basic type is that slice type), and the front end asserts
// results back to the cell's types. Elements of interface type are not
// compared here (the interpreter wraps values of cell types in them): the
// front end does not rewrite those calls.
package generic
