#!/usr/bin/env bash
# Installs what Upbeam's commands need on a fresh machine that has Node (>= 20.19) and npm:
#   pnpm (the version in package.json's packageManager), the workspace's packages, and, with --browser,
#   Debian's chromium for the browser tests (apt-get; never a browser download of playwright's own).
# Idempotent: what is already there is left as it is.
set -euo pipefail
cd "$(dirname "$0")/.."

pnpm_version=$(node -p "require('./package.json').packageManager.split('@')[1]")
if [ "$(pnpm --version 2>/dev/null || true)" != "$pnpm_version" ]; then
  echo "setup: installing pnpm@$pnpm_version"
  npm install -g --no-fund --no-audit "pnpm@$pnpm_version" >/dev/null
fi

if [ "${CI:-}" = "true" ]; then
  pnpm install --frozen-lockfile
else
  pnpm install
fi

if [ "${1:-}" = "--browser" ]; then
  chromium_path=${CHROMIUM_PATH:-/usr/bin/chromium}
  if [ ! -x "$chromium_path" ]; then
    echo "setup: installing Debian's chromium for the browser tests"
    if [ "$(id -u)" = 0 ]; then
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    else
      sudo apt-get update -qq
      sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    fi
  fi
fi
