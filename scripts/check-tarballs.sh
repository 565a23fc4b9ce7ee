#!/usr/bin/env bash
# Packs every published package (pnpm pack: what npm would get), checks that each carries its README (its npm
# page), installs the tarballs into a scratch app with npm, and checks that each entry imports under ESM and
# CommonJS and type-checks under both module resolutions a consumer may use (node16 and bundler).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# Run from a pnpm script, this shell holds pnpm's settings as npm_config_* variables, which npm does not know
# and warns about one by one: the scratch app's npm runs without them (it reads the user's .npmrc itself).
for name in $(compgen -e | grep '^npm_config_' || true); do unset "$name"; done

mkdir -p "$scratch/tarballs" "$scratch/app"
for dir in "$root"/packages/*/; do
  (cd "$dir" && pnpm pack --pack-destination "$scratch/tarballs" >/dev/null)
done
# Each tarball carries its README (the npm page): 20 to 60 lines (what it is, install, a use, the docs).
for tarball in "$scratch"/tarballs/*.tgz; do
  lines=$(tar -xzOf "$tarball" package/README.md 2>/dev/null | wc -l) || lines=0
  if [ "$lines" -lt 20 ] || [ "$lines" -gt 60 ]; then
    echo "check-tarballs: $(basename "$tarball") needs a README.md of 20 to 60 lines (found $lines)" >&2
    exit 1
  fi
  echo "ok: $(basename "$tarball") has its README.md ($lines lines)"
done
cd "$scratch/app"
cat > package.json <<'JSON'
{ "name": "scratch-app", "private": true, "version": "0.0.0" }
JSON
npm install --no-audit --no-fund --loglevel=error "$scratch"/tarballs/*.tgz react@19 react-dom@19 @types/react@19 vue@3 svelte@5 @angular/core@21 @angular/compiler@21 rxjs@7 @types/node@20 typescript@5.9 >/dev/null

# Entry points and one export each must have (subpath adapters included when the package offers them).
entries=$(node -e '
  const fs = require("fs");
  const out = [];
  for (const dir of fs.readdirSync("node_modules/@upbeam")) {
    const pkg = JSON.parse(fs.readFileSync(`node_modules/@upbeam/${dir}/package.json`, "utf8"));
    // Files served as they are (stylesheets, the service worker of background uploads) are checked apart: nothing to
    // import in Node (the worker would run there).
    for (const sub of Object.keys(pkg.exports)) if (sub !== "./package.json" && !/\.(css|js)$/.test(sub)) out.push(pkg.name + sub.slice(1));
  }
  console.log(out.join(" "));
')
for entry in $entries; do
  # Angular's partial compilation (what ng-packagr ships too) is linked by the app's Angular CLI; plain Node
  # evaluates it with the JIT compiler, loaded first.
  jit=false; case "$entry" in @upbeam/upload-angular*) jit=true ;; esac
  node --input-type=module -e "if ($jit) await import('@angular/compiler'); const m = await import('$entry'); if (Object.keys(m).length === 0) throw new Error('$entry (ESM) exports nothing');"
  node -e "if ($jit) require('@angular/compiler'); const m = require('$entry'); if (Object.keys(m).length === 0) throw new Error('$entry (CJS) exports nothing');"
  echo "ok: $entry imports under ESM and CJS"
done

# Each stylesheet (and served script) an export map names is in the tarball.
node -e '
  const fs = require("fs");
  for (const dir of fs.readdirSync("node_modules/@upbeam")) {
    const pkg = JSON.parse(fs.readFileSync(`node_modules/@upbeam/${dir}/package.json`, "utf8"));
    for (const sub of Object.keys(pkg.exports).filter((sub) => /\.(css|js)$/.test(sub))) {
      const entry = pkg.name + sub.slice(1);
      if (fs.statSync(require.resolve(entry)).size === 0) throw new Error(`${entry} is empty`);
      console.log(`ok: ${entry} is in the tarball`);
    }
  }
'

cat > check.ts <<'TS'
import { createUploadHandler, type UploadHandlerConfig } from '@upbeam/upload-server';
import { uploadFile, type UploadOptions, type UploadProgress } from '@upbeam/upload-client';
import { useS3Upload, type TrackedFile } from '@upbeam/upload-react';
import { Uploader, type UploaderProps } from '@upbeam/upload-react/components';
import { ar, type UploadLocale } from '@upbeam/upload-react/locales';
import { useDropZone, useS3Upload as useVueUpload } from '@upbeam/upload-vue';
import { createDropZone, createS3Upload } from '@upbeam/upload-svelte';
import { createDropZone as createSolidDropZone, createS3Upload as createSolidUpload } from '@upbeam/upload-solid';
import { DropZoneController } from '@upbeam/upload-client/drop-zone';
import type { PresignedUploadResponse, UploadRequestBody } from '@upbeam/upload-protocol';
import '@upbeam/upload-react/components.css'; // its types condition: no `declare module '*.css'` needed

const config: UploadHandlerConfig = { bucket: 'b', maxFileSize: 1024 };
const handler: (request: Request) => Promise<Response> = createUploadHandler(config);
const options: UploadOptions = { strategy: 'temporary-token', partSize: 5242880, onProgress: (p: UploadProgress) => p.progress };
const upload: (file: File, options?: UploadOptions) => Promise<{ url: string }> = uploadFile;
const hook: () => { files: readonly TrackedFile[] } = useS3Upload;
const vue: () => { files: { readonly value: readonly TrackedFile[] } } = useVueUpload;
const svelte: () => { readonly files: readonly TrackedFile[] } = createS3Upload;
const solid: () => { readonly files: () => readonly TrackedFile[] } = createSolidUpload;
const uploader: (props: UploaderProps) => unknown = Uploader;
const locale: UploadLocale = ar;
const zones = [useDropZone, createDropZone, createSolidDropZone, new DropZoneController({ onDrop: () => {} })] as const;
const body: UploadRequestBody = { filename: 'a', filetype: 'b/c', _upload: { strategy: 'presigned' } };
const answer: Partial<PresignedUploadResponse> = { url: 'x' };
export { handler, options, upload, hook, uploader, locale, vue, svelte, solid, zones, body, answer };
TS
# Angular's package is ESM only (as Angular's own): checked from an ES module under both resolutions.
cat > check-angular.mts <<'TS'
import { createRouteHooks, injectS3Upload, UpbeamDropZone, UpbeamDropZoneInput, type S3Upload } from '@upbeam/upload-angular';

const angular: () => S3Upload = injectS3Upload;
export { angular, createRouteHooks, UpbeamDropZone, UpbeamDropZoneInput };
TS
for resolution in node16 bundler; do
  module=$([ "$resolution" = node16 ] && echo node16 || echo esnext)
  npx --no-install tsc --noEmit --strict --noUncheckedSideEffectImports --target es2022 --skipLibCheck false --lib es2022,dom --types node \
    --module "$module" --moduleResolution "$resolution" --jsx react-jsx check.ts check-angular.mts
  echo "ok: types resolve with moduleResolution $resolution"
done
