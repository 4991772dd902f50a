#!/usr/bin/env bash
# deps.sh — installs the Debian packages goldp's tests, benchmarks and the
# Docker image use, only those that are missing (apt-get is not called at all
# when everything is present). Called by tools/setup.sh and the Dockerfile.
#
#   tools/deps.sh              test and benchmark packages, with JupyterHub and its
#                              configurable-http-proxy (tests/test_hub.py)
#   tools/deps.sh notebook     plus Jupyter Notebook, the `jupyter kernelspec` command
#                              and jupyterhub-singleuser (the Docker image, browser tests)
#
# GOLDP_APT_EXTRA adds packages (space separated); GOLDP_SKIP_APT=1 skips all.
set -euo pipefail

pkgs=(
  python3-jupyter-client python3-jupyter-kernel-test python3-nbclient
  python3-nbformat python3-ipykernel python3-numpy python3-sklearn
  python3-zmq python3-jsonschema python3-pytest
  # tests/test_hub.py: Debian's JupyterHub 3 (its jupyterhub-singleuser wraps
  # the classic Notebook) and the proxy it starts, which Debian packages as
  # node-configurable-http-proxy.
  jupyterhub node-configurable-http-proxy
  # tests/test_docker_steps.py reads docs/jupyterhub.md's config.yaml.
  python3-yaml
)
if [ "${1:-}" = notebook ]; then
  # jupyterhub provides jupyterhub-singleuser, what JupyterHub starts in the image.
  pkgs+=(jupyter-notebook jupyter-client jupyterhub python3-matplotlib)
fi
# shellcheck disable=SC2206
pkgs+=(${GOLDP_APT_EXTRA:-})
[ "${GOLDP_SKIP_APT:-0}" = 1 ] && exit 0

missing=()
for p in "${pkgs[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ "${#missing[@]}" -eq 0 ] && exit 0

echo "deps: installing Debian packages: ${missing[*]}" >&2
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
