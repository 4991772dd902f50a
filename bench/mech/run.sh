#!/bin/sh
# Side-by-side benchmark of the one-shot feature/label release: lib/mech
# (1 and 2 workers) against numpy (one core), 10^6 records x 10 features.
# Usage: bench/mech/run.sh [n] [d]   (from anywhere)
set -eu
cd "$(dirname "$0")/../.."
n=${1:-1000000}
d=${2:-10}
bin=$(mktemp -d)/mechbench
go build -o "$bin" ./bench/mech
sigma=$("$bin" -sigma-only -d "$d")
{
	"$bin" -n "$n" -d "$d" -workers 1,2
	OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 /usr/bin/python3 bench/mech/release.py -n "$n" -d "$d" -sigma "$sigma"
} | awk -F'\t' -v n="$n" -v d="$d" '
	{ impl[NR]=$1; w[NR]=$2; s[NR]=$3; r[NR]=$4; if ($1=="numpy") np=$3; if ($1=="go" && $2==1) g1=$3 }
	END {
		printf "release of %d records x %d features (Gaussian features + RR labels), best of 5\n", n, d
		printf "%-8s %7s %10s %14s %12s\n", "impl", "workers", "seconds", "Mvalues/s", "vs numpy"
		for (i=1; i<=NR; i++) printf "%-8s %7d %10.4f %14.1f %11.2fx\n", impl[i], w[i], s[i], r[i], np/s[i]
		if (g1 > 0) { for (i=1; i<=NR; i++) if (impl[i]=="go" && w[i]==2) printf "2-core scaling: %.2fx\n", g1/s[i] }
	}'
