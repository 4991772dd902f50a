#!/usr/bin/env bash
# setup.sh — prepares a machine for goldp's tests, idempotently:
#   1. Debian packages the tests need (tools/deps.sh, only when missing), and
#      the real-browser test's Chromium, Jupyter Notebook and playwright-core
#      (tools/browser-deps.sh; GOLDP_SKIP_BROWSER=1 skips it)
#   2. Go modules from the module proxy (go.mod), bin/goldp built
#   3. the "Go (goldp)" kernelspec installed for the current user
#
# Environment: GOLDP_SKIP_APT=1 leaves Debian packages alone;
# GOLDP_APT_EXTRA adds packages (see tools/deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/deps.sh
bash tools/browser-deps.sh

if ! command -v go >/dev/null 2>&1; then
  if [ -x /usr/local/go/bin/go ]; then export PATH="/usr/local/go/bin:$PATH"; else
    echo "setup: no Go toolchain found (need go >= 1.26 on PATH)" >&2; exit 1; fi
fi
go mod download
mkdir -p bin
# Built like the Docker image's build stage (static, -trimpath), so the
# Dockerfile test reuses this build's cache.
CGO_ENABLED=0 go build -trimpath -o bin/goldp .
# The kernelspec's argv holds the absolute path of bin/goldp.
./bin/goldp install --user >/dev/null
echo "setup: ok (bin/goldp built, kernelspec goldp installed)" >&2
