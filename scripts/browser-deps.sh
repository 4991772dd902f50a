#!/usr/bin/env bash
# browser-deps.sh — prepares the real-browser test (tests/test_browser.py),
# idempotently:
#   1. Debian packages chromium and jupyter-notebook, only when missing
#      (apt-get update runs at most once, and not at all when both are there)
#   2. `npm ci` in tests/browser, only when node_modules is missing or
#      package-lock.json changed since the last install
#
# playwright-core never downloads a browser; the test drives /usr/bin/chromium.
#
# Environment: GOLDP_SKIP_APT=1 leaves Debian packages alone;
# GOLDP_SKIP_BROWSER=1 does nothing at all (the browser test skips too).
set -euo pipefail
cd "$(dirname "$0")/.."

[ "${GOLDP_SKIP_BROWSER:-0}" = 1 ] && exit 0

if [ "${GOLDP_SKIP_APT:-0}" != 1 ]; then
  missing=()
  for p in chromium jupyter-notebook; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "browser-deps: installing Debian packages: ${missing[*]}" >&2
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq >/dev/null
    $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
fi

if ! command -v npm >/dev/null 2>&1; then
  echo "browser-deps: npm not found (install Node.js >= 18 with npm)" >&2
  exit 1
fi

# npm ci only when node_modules is missing or the lock file changed: the
# lock file's hash is kept next to the installed modules.
dir=tests/browser
stamp="$dir/node_modules/.goldp-lock.sha256"
want=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
if [ ! -d "$dir/node_modules/playwright-core" ] || [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "browser-deps: npm ci in $dir" >&2
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  echo "$want" >"$stamp"
fi
