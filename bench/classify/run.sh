#!/usr/bin/env bash
# Side-by-side benchmark of nearest-prototype search and the private
# classifiers: goldp (Go benchmarks, and a metric defined in a goldp cell when
# bin/goldp can run scripts) against scikit-learn (Debian python3-sklearn).
# Prints one table. Usage: bench/classify/run.sh  (from anywhere)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
# Best of 5 runs of each benchmark (the machine may be shared).
go test -run '^$' -bench 'Nearest|BBFast|ProtoNNPrivateFast' -benchtime 3x -count 5 ./bench/classify >"$tmp/go.txt"
/usr/bin/python3 "$here/sklearn_bench.py" >"$tmp/py.txt"
cell="(goldp run failed)"
if go build -o "$tmp/goldp" . && timeout 300 "$tmp/goldp" run bench/classify/cell/cellmetric.go >"$tmp/cell.txt" 2>"$tmp/cell.err"; then
	cell=$(grep -m1 'cell metric 1-NN' "$tmp/cell.txt" || true)
fi

gofield() { # benchmark name, unit -> smallest value over the runs
	awk -v b="$1" -v u="$2" '$1 ~ "^"b"(-[0-9]+)?$" { for (i = 3; i < NF; i++) if ($(i+1) == u && (m == "" || $i + 0 < m + 0)) m = $i } END { print m }' "$tmp/go.txt"
}
pyfield() { awk -F'\t' -v n="$1" 'index($1, n) == 1 { print $3 }' "$tmp/py.txt"; }

printf '%-58s %14s %12s\n' "1-NN among 10^3 prototypes, 10^5 queries, 2-D" "ms per 10^5" "calls/query"
printf '%-58s %14s %12s\n' "goldp VP-tree, built-in Euclidean" "$(gofield BenchmarkNearestEuclidean ms/1e5q)" "$(gofield BenchmarkNearestEuclidean calls/query)"
printf '%-58s %14s %12s\n' "goldp VP-tree, built-in Euclidean, leaves of 8" "$(gofield BenchmarkNearestEuclideanLeaf8 ms/1e5q)" "$(gofield BenchmarkNearestEuclideanLeaf8 calls/query)"
printf '%-58s %14s %12s\n' "goldp brute force" "$(gofield BenchmarkNearestBrute ms/1e5q)" "$(gofield BenchmarkNearestBrute calls/query)"
printf '%-58s %14s %12s\n' "sklearn BallTree euclidean" "$(pyfield 'sklearn BallTree euclidean')" "-"
printf '%-58s %14s %12s\n' "sklearn KNeighbors(n_jobs=-1)" "$(pyfield 'sklearn KNeighbors')" "-"
printf '%-58s %14s %12s\n' "goldp VP-tree, Go func costing 3 µs/call (simulated cell)" "$(gofield BenchmarkNearestCellMetric ms/1e5q)" "$(gofield BenchmarkNearestCellMetric calls/query)"
printf '%-58s %14s %12s\n' "goldp VP-tree, metric interpreted by yaegi (cell source)" "$(gofield BenchmarkNearestYaegiMetric ms/1e5q)" "$(gofield BenchmarkNearestYaegiMetric calls/query)"
if [[ $cell == goldp* ]]; then
	printf '%-58s %14s %12s\n' "goldp VP-tree, metric defined in a goldp cell (real)" "$(cut -f3 <<<"$cell")" "$(cut -f4 <<<"$cell")"
else
	printf '%-58s %14s %12s\n' "goldp VP-tree, metric defined in a goldp cell (real)" "$cell" "-"
fi
printf '%-58s %14s %12s\n' "sklearn BallTree, Python function metric" "$(pyfield 'sklearn BallTree python-func')" "-"
echo
printf '%-58s %14s\n' "private classifiers, n = 10^6, d = 2, α = 1" "ms per fit"
printf '%-58s %14s\n' "Berrett–Butucea rule, fast simulation" "$(gofield BenchmarkBBFast ms/fit)"
printf '%-58s %14s\n' "private Proto-NN, k = 100, fast simulation" "$(gofield BenchmarkProtoNNPrivateFast ms/fit)"
