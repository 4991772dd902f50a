#!/usr/bin/env bash
# main.sh — the main job: builds goldp and executes every walkthrough notebook
# headless on the embedded synthetic data (no download, no Jupyter needed),
# then prints where the executed notebooks and figures are.
#
#   tools/main.sh [OUTDIR]     (default: out/)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v go >/dev/null 2>&1 || export PATH="/usr/local/go/bin:$PATH"
out="${1:-out}"
mkdir -p bin "$out"
go build -o bin/goldp .
status=0
for nb in notebooks/*.ipynb; do
  [ -e "$nb" ] || continue
  name=$(basename "$nb")
  echo "== $nb"
  if bin/goldp nb run "$nb" --out "$out/$name"; then
    echo "   executed: $out/$name"
  else
    echo "   FAILED: $nb" >&2; status=1
  fi
done
echo
echo "Executed notebooks are in $out/"
exit $status
