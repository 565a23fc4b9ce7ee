#!/usr/bin/env bash
# Installs what Upbeam's commands need on a fresh machine that has Node (>= 20.19) and npm:
#   pnpm (the version in package.json's packageManager), the workspace's packages, and
#   --browser  Debian's chromium, firefox-esr, webkit2gtk-driver and xvfb for the browser tests
#              (scripts/install-browsers.sh: apt-get; never a browser download of a tool's own)
#   --ceph     Debian's Ceph packages (radosgw) for the suites on a real S3 gateway, through the project's
#              shared script beside the repository: ../shared/tools/ceph-rgw.sh install (apt-get, ~30 s)
# Idempotent: what is already there is left as it is.
set -euo pipefail
cd "$(dirname "$0")/.."

browser=false ceph=false
for arg in "$@"; do
  case "$arg" in
    --browser) browser=true ;;
    --ceph) ceph=true ;;
    *) echo "setup: unknown option $arg (known: --browser --ceph)" >&2; exit 2 ;;
  esac
done

# apt-get and the Ceph install need root: run as is when root, through sudo otherwise.
as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}
apt_install() {
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

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

if [ "$browser" = true ]; then
  bash scripts/install-browsers.sh
fi

if [ "$ceph" = true ]; then
  rgw_script=../shared/tools/ceph-rgw.sh
  if [ ! -f "$rgw_script" ]; then
    echo "setup: $rgw_script is missing: the shared folder must sit beside the repository" >&2
    exit 1
  fi
  # ceph-rgw.sh start waits for radosgw with curl.
  if ! command -v curl >/dev/null 2>&1; then
    echo "setup: installing curl for ceph-rgw.sh"
    apt_install curl
  fi
  if ! command -v radosgw >/dev/null 2>&1; then
    echo "setup: installing Debian's Ceph packages (radosgw) for the real-S3 suites"
    as_root bash "$rgw_script" install
  fi
fi
