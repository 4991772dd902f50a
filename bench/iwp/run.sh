#!/bin/sh
# Side-by-side benchmark of IWP-SGD in the E-C2 setting (668,859 synthetic
# Folktables-style ACSIncome rows, 80/20 split, batch 50, exponential loss,
# clean/naive/IWP SGD × 100 noise draws): Go (lib/iwp + lib/mech release,
# GOMAXPROCS workers) against the NumPy reference numpy_ref.py on the very
# same data. NumPy's direct loop is measured on LOOP_DRAWS draws and scaled
# linearly to 100 (each draw is independent and costs the same); the
# draws-vectorised NumPy form runs VEC_DRAWS draws at once (scaled too when
# fewer than 100), once as written (clean run per draw) and once with the
# clean run trained once, as Go does (numpy-vectorised-clean1). Go runs three
# times around them and its median is the reference. Wall time depends on
# machine load; CPU time (user+sys of the process) is printed beside it.
set -eu
cd "$(dirname "$0")/../.."
LOOP_DRAWS=${LOOP_DRAWS:-3}
VEC_DRAWS=${VEC_DRAWS:-100}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
IWP_BENCH_DUMP=$tmp go test -count=1 -run TestEC2Small ./bench/iwp >/dev/null
go test -c -o "$tmp/iwpbench" ./bench/iwp
# The Go side (about a second) runs three times, before, between and after
# the NumPy runs, so that its figure sees the same machine; the ratios use
# the median of the three (each run's figures are printed too).
gorun() {
	"$tmp/iwpbench" -test.run '^$' -test.bench 'EC2$' -test.benchtime 1x | grep '^BenchmarkEC2' |
		awk '{for(i=1;i<=NF;i++){if($i=="wall-s")w=$(i-1); if($i=="cpu-s")c=$(i-1)} printf "%s %s\n", w, c}' >> "$tmp/go"
}
gorun
py_out=$(/usr/bin/python3 bench/iwp/numpy_ref.py "$tmp" --loop-draws "$LOOP_DRAWS" --vec-draws "$VEC_DRAWS")
gorun
# Go trains the clean run once (it does not depend on the draw); the
# vectorised NumPy form is also timed doing the same, for a like-for-like row.
py_out="$py_out
$(/usr/bin/python3 bench/iwp/numpy_ref.py "$tmp" --loop-draws 0 --vec-draws "$VEC_DRAWS" --clean-once)"
gorun
echo "E-C2 IWP-SGD benchmark: 668,859 rows (535,087 train), d=4, batch 50, 3 methods x 100 noise draws, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
echo "go runs (wall-s cpu-s): $(tr '\n' ';' < "$tmp/go")"
printf '%-18s %7s %10s %10s %14s %14s %10s %10s\n' implementation draws wall-s cpu-s "wall-s(100)" "cpu-s(100)" "Go x wall" "Go x cpu"
gw=$(cut -d' ' -f1 "$tmp/go" | sort -g | sed -n 2p)
gc=$(cut -d' ' -f2 "$tmp/go" | sort -g | sed -n 2p)
printf '%-18s %7d %10.2f %10.2f %14.2f %14.2f %10s %10s\n' "go (median of 3)" 100 "$gw" "$gc" "$gw" "$gc" 1 1
echo "$py_out" | while read name draws wall per cpu rest; do
	awk -v n="$name" -v d="$draws" -v w="$wall" -v c="$cpu" -v gw="$gw" -v gc="$gc" 'BEGIN{
		sw=w*100/d; sc=c*100/d;
		printf "%-18s %7d %10.2f %10.2f %14.2f %14.2f %10.1f %10.1f\n", n, d, w, c, sw, sc, sw/gw, sc/gc }'
done
echo "numpy mean final test risks: $(echo "$py_out" | cut -d' ' -f6- | tr '\n' ';')"
