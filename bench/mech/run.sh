#!/bin/sh
# Side-by-side benchmark of the one-shot feature/label release: lib/mech
# (1 and 2 workers) against numpy (one core), 10^6 records x 10 features.
# Usage: bench/mech/run.sh [n] [d] [reps]   (from anywhere)
# Each figure is the best of reps runs (default 15): on a shared machine the
# minimum filters out interference; CPU seconds are less sensitive to it.
set -eu
cd "$(dirname "$0")/../.."
n=${1:-1000000}
d=${2:-10}
reps=${3:-15}
bin=$(mktemp -d)/mechbench
go build -o "$bin" ./bench/mech
sigma=$("$bin" -sigma-only -d "$d")
{
	"$bin" -n "$n" -d "$d" -workers 1,2 -reps "$reps"
	OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 /usr/bin/python3 bench/mech/release.py -n "$n" -d "$d" -reps "$reps" -sigma "$sigma"
} | awk -F'\t' -v n="$n" -v d="$d" -v reps="$reps" '
	{ impl[NR]=$1; mode[NR]=$2; w[NR]=$3; s[NR]=$4; r[NR]=$5; c[NR]=$6
	  if ($1=="numpy") { np[$2]=$4; npc[$2]=$6 }
	  if ($1=="go" && $3==1) g1[$2]=$4 }
	END {
		printf "release of %d records x %d features (Gaussian features + RR labels), best of %d\n", n, d, reps
		printf "alloc: outputs allocated per release; reuse: caller-owned output buffers\n"
		printf "%-6s %-6s %7s %9s %11s %9s %9s %10s\n", "impl", "mode", "workers", "wall s", "Mvalues/s", "vs numpy", "cpu s", "cpu vs np"
		for (i=1; i<=NR; i++) printf "%-6s %-6s %7d %9.4f %11.1f %8.2fx %9.4f %9.2fx\n", impl[i], mode[i], w[i], s[i], r[i], np[mode[i]]/s[i], c[i], npc[mode[i]]/c[i]
		for (i=1; i<=NR; i++) if (impl[i]=="go" && w[i]==2) printf "2-core scaling (%s, wall, 1 -> 2 workers): %.2fx\n", mode[i], g1[mode[i]]/s[i]
	}'
echo
"$bin" -samplers | column -t -s "$(printf '\t')"
