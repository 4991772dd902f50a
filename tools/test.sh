#!/usr/bin/env bash
# test.sh — runs every test of goldp: the README's test command, and what
# .ci/run calls.
#
#   1. tools/setup.sh: Debian packages (only when missing), bin/goldp, kernelspec
#   2. gofmt and go vet (Linux, and macOS by cross-compilation)
#   3. go test ./... (unit, property, statistical tests, fuzz seed corpora),
#      and every benchmark once (-benchtime 1x)
#   4. Python protocol/notebook tests against the installed kernel (pytest)
#
# GOLDP_TEST_SKIP_SETUP=1 skips step 1 (when you know the machine is set up).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"

if [ "${GOLDP_TEST_SKIP_SETUP:-0}" != 1 ]; then
  bash tools/setup.sh
else
  go build -o bin/goldp .
fi

echo "== gofmt / go vet"
unformatted=$(gofmt -l $(git ls-files '*.go' | grep -v '^kernel/symbols/') 2>&1 || true)
if [ -n "$unformatted" ]; then echo "gofmt needed (or the file does not parse):"; echo "$unformatted"; exit 1; fi
go vet ./...
# goldp is installed natively on macOS too (go install): keep it building there.
GOOS=darwin GOARCH=arm64 go vet ./...

echo "== go test"
go test -count=1 ./...

# Every benchmark runs once, so that a broken one fails here (figures
# come from bench/ runs, never from this).
echo "== benchmarks, one iteration each"
if ! out=$(go test -run '^$' -bench . -benchtime 1x ./... 2>&1); then
  echo "$out" | grep -vE '^(goos|goarch|pkg|cpu|Benchmark|PASS|ok )' ; exit 1
fi

if ls tests/test_*.py >/dev/null 2>&1; then
  echo "== python tests (kernel protocol, notebooks)"
  export GOLDP_BIN="$PWD/bin/goldp"
  # Debian's interpreter: it has jupyter_client, nbclient and jupyter_kernel_test.
  /usr/bin/python3 -m pytest -q -p no:cacheprovider tests/
fi
echo "== all tests passed"
