#!/usr/bin/env bash
# setup.sh — installs what goldp's tests and tools need, idempotently.
#
# Debian packages are installed only when missing (apt-get is not called at all
# when everything is present). Go modules come from the module proxy through
# go.mod. Finally the goldp binary is built into ./bin and its kernelspec is
# installed for the current user, so Jupyter tools find "Go (goldp)".
#
# Environment:
#   GOLDP_SKIP_APT=1   do not touch Debian packages (for machines without root)
#   GOLDP_APT_EXTRA    extra Debian packages to install (space separated)
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages the test suite and benchmarks use. Python tools run with
# /usr/bin/python3 (Debian's interpreter), never a pyenv/venv python.
pkgs=(
  python3-jupyter-client python3-jupyter-kernel-test python3-nbclient
  python3-nbformat python3-ipykernel python3-numpy python3-sklearn
  python3-zmq python3-jsonschema
)
# shellcheck disable=SC2206
pkgs+=(${GOLDP_APT_EXTRA:-})

missing=()
for p in "${pkgs[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ "${#missing[@]}" -gt 0 ] && [ "${GOLDP_SKIP_APT:-0}" != 1 ]; then
  echo "setup: installing Debian packages: ${missing[*]}" >&2
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq >/dev/null
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Go: the toolchain must be on PATH (it is on every machine of this project).
if ! command -v go >/dev/null 2>&1; then
  if [ -x /usr/local/go/bin/go ]; then export PATH="/usr/local/go/bin:$PATH"; else
    echo "setup: no Go toolchain found (need go >= 1.24 on PATH)" >&2; exit 1; fi
fi
go mod download
mkdir -p bin
go build -o bin/goldp .
# The kernelspec points at the absolute path of bin/goldp.
./bin/goldp install --user >/dev/null
echo "setup: ok (bin/goldp, kernelspec goldp installed)" >&2
