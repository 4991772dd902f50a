#!/bin/sh
# Display and headless-runner figures for issue 3.
#
#   sh bench/display/run.sh          (from the repository root)
#
# 1. Rendering a scatter plot of 10,000 (and 1,000, 100) points to PNG at
#    144 dpi and to SVG, with the output sizes (go test -bench); the SVG
#    size cap kernel/display.SVGCap is chosen from these sizes.
# 2. Executing the same notebook headless with `goldp nb run` (in-process)
#    and with nbclient against the installed "goldp" kernel (skipped when
#    the kernelspec is not installed).
set -e
cd "$(dirname "$0")/../.."
echo "== plot rendering (ns/op, bytes of output) =="
go test -run '^$' -bench 'Plot' -benchtime 5x -count 3 ./kernel/display | grep '^Benchmark'
echo
echo "== headless notebook execution =="
go build -o bin/goldp .
/usr/bin/python3 bench/display/nbtime.py bin/goldp
