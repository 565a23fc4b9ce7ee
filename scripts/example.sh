#!/usr/bin/env bash
# `npm run example`: installs what the React example needs, builds only the packages it imports, and serves
# it (examples/react-vite/server/dev.ts) with the embedded storage. Quiet: one line per step, the output of a
# step only when it fails, and the URL last. PORT (default 5173) and LOCAL_S3_PORT (default 4568) choose the
# ports; Ctrl-C stops it cleanly (the server replaces this shell, so the signal reaches it directly).
set -euo pipefail
cd "$(dirname "$0")/.."

log=$(mktemp)
trap 'rm -f "$log"' EXIT

# Runs a step with its output kept aside; prints it only if the step fails.
quietly() {
  local label=$1
  shift
  echo "$label"
  if ! "$@" >"$log" 2>&1; then
    cat "$log" >&2
    echo "npm run example: \"$label\" failed (output above)" >&2
    exit 1
  fi
}

quietly "Installing (pnpm, the workspace's packages)..." bash scripts/setup.sh
# The example's dependencies only (`^...`): not the example's own production build, not the Next.js example.
quietly "Building the packages the example uses..." \
  pnpm exec turbo run build --filter='@upbeam/example-react-vite^...' --output-logs=errors-only

cd examples/react-vite
# The AWS SDK's notice that its 2027 releases need Node >= 22 says nothing about this demo: keep it quiet.
export AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=${AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED:-true}
rm -f "$log"
trap - EXIT
exec node --import tsx server/dev.ts
