#!/usr/bin/env bash
# Side-by-side benchmark of nearest-prototype search and the private
# classifiers: goldp (Go benchmarks, and a metric defined in a goldp cell run
# through `goldp run`) against scikit-learn (Debian python3-sklearn).
# Prints one table. Usage: bench/classify/run.sh  (from anywhere)
#
# Wall times are the best of several runs on each side; CPU times (user +
# system of the process, all threads) compare the work done when the machine
# is shared and wall times are noisy.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
go test -run '^$' -bench 'Nearest|BBFast|ProtoNNPrivateFast' -benchtime 3x -count 5 ./bench/classify >"$tmp/go.txt"
/usr/bin/python3 "$here/sklearn_bench.py" >"$tmp/py.txt"
cell="(goldp run failed)"
if go build -o "$tmp/goldp" . && timeout 300 "$tmp/goldp" run bench/classify/cell/cellmetric.go >"$tmp/cell.txt" 2>"$tmp/cell.err"; then
	cell=$(grep -m1 'cell metric 1-NN' "$tmp/cell.txt" || true)
fi

gofield() { # benchmark name, unit -> smallest value over the runs
	awk -v b="$1" -v u="$2" '$1 ~ "^"b"(-[0-9]+)?$" { for (i = 3; i < NF; i++) if ($(i+1) == u && (m == "" || $i + 0 < m + 0)) m = $i } END { print m }' "$tmp/go.txt"
}
pyfield() { awk -F'\t' -v n="$1" -v f="$2" 'index($1, n) == 1 { print $f }' "$tmp/py.txt"; }
row() { printf '%-60s %10s %10s %12s\n' "$@"; }
gorow() { row "$1" "$(gofield "$2" ms/1e5q)" "$(gofield "$2" cpu-ms/1e5q)" "$(gofield "$2" calls/query)"; }
pyrow() { row "$1" "$(pyfield "$2" 3)" "$(pyfield "$2" 4)" "-"; }

row "1-NN among 10^3 prototypes, per 10^5 queries, 2-D" "wall ms" "CPU ms" "calls/query"
gorow "goldp default index (k-d tree), built-in Euclidean" BenchmarkNearestEuclidean
gorow "goldp VP-tree (leaves of 8), built-in Euclidean" BenchmarkNearestEuclideanVP
gorow "goldp VP-tree (leaves of 8), built-in Manhattan" BenchmarkNearestManhattan
gorow "goldp brute force" BenchmarkNearestBrute
pyrow "sklearn BallTree euclidean" 'sklearn BallTree euclidean'
pyrow "sklearn KNeighbors(n_jobs=-1)" 'sklearn KNeighbors'
gorow "goldp VP-tree, Go func spinning 3 µs/call (simulated cell)" BenchmarkNearestCellMetric
gorow "goldp VP-tree, metric interpreted by yaegi (cell source)" BenchmarkNearestYaegiMetric
if [[ $cell == goldp* ]]; then
	row "goldp VP-tree, metric defined in a goldp cell (goldp run)" "$(cut -f3 <<<"$cell")" "-" "$(cut -f4 <<<"$cell")"
else
	row "goldp VP-tree, metric defined in a goldp cell (goldp run)" "$cell" "-" "-"
fi
pyrow "sklearn BallTree, Python function metric" 'sklearn BallTree python-func'
echo
row "private classifiers, n = 10^6, d = 2, α = 1" "wall ms" "" ""
row "Berrett–Butucea rule, fast simulation (fit)" "$(gofield BenchmarkBBFast ms/fit)" "" ""
row "private Proto-NN, k = 100, fast simulation (fit)" "$(gofield BenchmarkProtoNNPrivateFast ms/fit)" "" ""
