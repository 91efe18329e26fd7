#!/usr/bin/env bash
# Installs what the browser tests (server/verify_browser_test.go and
# server/docs_browser_test.go, and console/console_browser_test.go, which also
# injects axe-core) need on a fresh Debian machine: Debian's
# Chromium (with its recommended fonts, so screenshots show text), Node.js
# with npm, and playwright-core and axe-core in testdata/browser (its
# node_modules is gitignored; package-lock.json pins playwright-core 1.56.1,
# the newest that runs on Debian 12's Node 18, and axe-core). Safe to
# run again: each step is skipped when its tool is already there. .ci/run
# calls it before the tests; with CI=true (as CI services set it) a missing
# tool fails the browser test instead of skipping it.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v node >/dev/null 2>&1 || need+=(nodejs)
command -v npm >/dev/null 2>&1 || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
  echo "browser-deps: installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq >/dev/null
  $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi

if [ ! -f testdata/browser/node_modules/playwright-core/package.json ] || [ ! -f testdata/browser/node_modules/axe-core/axe.min.js ]; then
  echo "browser-deps: npm ci in testdata/browser"
  # playwright-core drives the system Chromium; it downloads no browser.
  (cd testdata/browser && npm ci --no-audit --no-fund --loglevel=error)
fi
echo "browser-deps: $(/usr/bin/chromium --version 2>/dev/null | head -1), node $(node --version), playwright-core $(node -p "require('./testdata/browser/node_modules/playwright-core/package.json').version")"
