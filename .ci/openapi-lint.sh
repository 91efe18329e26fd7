#!/usr/bin/env bash
# Validates openapi/openapi.json with an independent validator: Redocly CLI's
# lint (pinned in testdata/openapi/package-lock.json; 1.34.x is the newest
# line that runs on Debian 12's Node 18) with the recommended-strict ruleset,
# where every finding is an error. Deliberate exceptions are listed, with
# reasons, in testdata/openapi/.redocly.lint-ignore.yaml. Node.js and npm
# come from Debian when missing; the CLI is installed into
# testdata/openapi/node_modules (gitignored). Safe to run again. .ci/run
# calls it; it exits non-zero on any lint error.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v node >/dev/null 2>&1 || need+=(nodejs)
command -v npm >/dev/null 2>&1 || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
  echo "openapi-lint: installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq >/dev/null
  $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi

dir=testdata/openapi
if [ ! -f "$dir/node_modules/@redocly/cli/package.json" ]; then
  echo "openapi-lint: npm ci in $dir"
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
fi
echo "openapi-lint: @redocly/cli $(node -p "require('./$dir/node_modules/@redocly/cli/package.json').version") on node $(node --version)"
# Run from $dir so the ignore file's document path (../../openapi/openapi.json)
# matches; REDOCLY_TELEMETRY=off keeps the run offline apart from npm.
(cd "$dir" && REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true \
  ./node_modules/.bin/redocly lint ../../openapi/openapi.json --config redocly.yaml --format=stylish)
