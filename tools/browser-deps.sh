#!/usr/bin/env bash
# browser-deps.sh — prepares the real-browser test (tests/test_browser.py),
# idempotently:
#   1. Debian packages chromium and jupyter-notebook (tools/deps.sh notebook,
#      the Dockerfile's step), only when missing: apt-get update runs at most
#      once, and not at all when everything is there
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

# Debian packages through the same script and arguments as the Dockerfile
# (`deps.sh notebook`: jupyter-notebook and the test packages), plus chromium;
# deps.sh calls apt-get (update once, then install) only for missing packages
# and honours GOLDP_SKIP_APT=1.
GOLDP_APT_EXTRA="chromium ${GOLDP_APT_EXTRA:-}" bash tools/deps.sh notebook

if ! command -v npm >/dev/null 2>&1; then
  echo "browser-deps: npm not found (install Node.js >= 20 with npm)" >&2
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
