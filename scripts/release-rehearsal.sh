#!/usr/bin/env bash
# A release rehearsal: what `changeset publish` would publish, installed and used by an app outside the
# monorepo. Run after `pnpm run build` (it packs the built dist/ folders).
#   1. `changeset version` on a throwaway copy of the repository (the pending changesets bump the versions
#      and write the changelogs, as the release would);
#   2. `pnpm pack` of every published package of that copy (workspace:* ranges become the new versions);
#   3. for each Node given (default: the Node on PATH), a fresh app in a temp dir installs the tarballs with
#      npm (third-party dependencies from the registry), type-checks a small app with `tsc --strict` (a
#      node:http server with createUploadHandler and toNodeHandler, a React page with useS3Upload), bundles
#      it with esbuild, and makes one real upload through it: headless chromium (playwright-core, Debian's
#      chromium) picks a file on the page, the server prepares it, the file goes to @upbeam/local-s3, and the
#      stored object is read back and compared.
#
#   scripts/release-rehearsal.sh [NODE_BIN_DIR ...]   e.g. scripts/release-rehearsal.sh "" .node/24/bin
#   ("" or no argument: the Node on PATH)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap '[ -n "${REHEARSAL_KEEP:-}" ] || rm -rf "$scratch"' EXIT
# Run from a pnpm script, this shell holds pnpm's settings as npm_config_* variables, which npm does not know.
for name in $(compgen -e | grep '^npm_config_' || true); do unset "$name"; done
started=$(date +%s)

for dir in "$root"/packages/*/; do
  [ -d "$dir/dist" ] || { echo "release-rehearsal: $dir has no dist/: run \`pnpm run build\` first" >&2; exit 1; }
done

echo "release-rehearsal: 1. changeset version on a throwaway copy"
copy="$scratch/repo"
mkdir -p "$copy"
tar -C "$root" --exclude=./.git --exclude=node_modules --exclude=.turbo --exclude=./.node --exclude=.data \
  --exclude=./test-results --exclude=./bench/results --exclude=./tools/runtimes/.work -cf - . | tar -C "$copy" -xf -
ln -s "$root/node_modules" "$copy/node_modules" # the changeset CLI and its changelog module
(cd "$copy" && node_modules/.bin/changeset version >/dev/null)
versions=$(cd "$copy" && node -e '
  const fs = require("fs");
  const out = [];
  for (const dir of fs.readdirSync("packages")) {
    const pkg = JSON.parse(fs.readFileSync(`packages/${dir}/package.json`, "utf8"));
    if (!pkg.private) out.push(`${pkg.name}@${pkg.version}`);
  }
  console.log(out.join(" "));
')
echo "  versions: $versions"

echo "release-rehearsal: 2. pnpm pack"
mkdir -p "$scratch/tarballs"
# pnpm pack reads each workspace: dependency's version from node_modules: link the copy's own packages there
# (nothing else is installed in the copy).
(cd "$copy" && node -e '
  const fs = require("fs");
  const path = require("path");
  const dirs = ["packages", "tools", "examples"].flatMap((top) => fs.readdirSync(top).map((name) => path.join(top, name)))
    .filter((dir) => fs.existsSync(path.join(dir, "package.json")));
  const byName = new Map(dirs.map((dir) => [JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).name, dir]));
  for (const dir of dirs.filter((dir) => dir.startsWith("packages/"))) {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
    for (const [name, range] of Object.entries({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.peerDependencies })) {
      if (!String(range).startsWith("workspace:")) continue;
      const link = path.join(dir, "node_modules", name);
      fs.mkdirSync(path.dirname(link), { recursive: true });
      fs.symlinkSync(path.relative(path.dirname(link), byName.get(name)), link);
    }
  }
')
for dir in "$copy"/packages/*/; do
  (cd "$dir" && pnpm pack --pack-destination "$scratch/tarballs" >/dev/null)
done
for tarball in "$scratch"/tarballs/*.tgz; do
  if tar -xzOf "$tarball" package/package.json | grep -q '"workspace:'; then
    echo "release-rehearsal: $(basename "$tarball") still has a workspace: range" >&2
    exit 1
  fi
done
ls "$scratch/tarballs" | sed 's/^/  /'

# The app: its sources are written once and copied into each Node's app folder.
app_src="$scratch/app-src"
mkdir -p "$app_src/src"
cat > "$app_src/src/server.ts" <<'TS'
// A node:http server: the page, its bundle, and the preparation endpoint over local storage.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { createUploadHandler, isUploadError, type UploadHandlerConfig } from '@upbeam/upload-server';
import { toNodeHandler, type NodeUploadHandler } from '@upbeam/upload-server/node';

export interface App {
  origin: string;
  storage: LocalS3;
  close(): Promise<void>;
}

export async function startApp(directory: string): Promise<App> {
  let upload: NodeUploadHandler | undefined;
  const server = createServer(async (req, res) => {
    if (req.url === '/api/s3-upload' && upload) return upload(req, res);
    const file = req.url === '/page.js' ? 'page.js' : 'index.html';
    res.setHeader('content-type', file === 'page.js' ? 'text/javascript' : 'text/html');
    res.end(await readFile(`${directory}/dist/${file}`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const storage = await startLocalS3({ port: 0, directory: `${directory}/.data`, allowedOrigins: [origin] });
  const config: UploadHandlerConfig = {
    ...storage.handlerSettings,
    maxFileSize: 1024 * 1024,
    onError: (error) => console.error(isUploadError(error) ? error.code : 'unexpected', error),
  };
  upload = toNodeHandler(createUploadHandler(config));
  return {
    origin,
    storage,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await storage.close();
    },
  };
}
TS
cat > "$app_src/src/page.tsx" <<'TS'
// The page: a file input and one row per file, through the React hook.
import { createRoot } from 'react-dom/client';
import { formatBytes } from '@upbeam/upload-client';
import { useS3Upload, type TrackedFile } from '@upbeam/upload-react';

function Row({ file }: { file: TrackedFile }) {
  return (
    <p className="file" data-status={file.status} data-key={file.result?.key ?? ''}>
      {file.file.name}: {file.progress}% of {formatBytes(file.size)} {file.status} {String(file.error ?? '')}
    </p>
  );
}

function App() {
  const { addFiles, files } = useS3Upload();
  return (
    <main>
      <input type="file" onChange={(event) => addFiles(Array.from(event.target.files ?? []))} />
      {files.map((file) => <Row key={file.id} file={file} />)}
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<App />);
TS
cat > "$app_src/index.html" <<'HTML'
<!doctype html>
<html><head><meta charset="utf-8"><title>release rehearsal</title></head>
<body><div id="root"></div><script type="module" src="/page.js"></script></body></html>
HTML
cat > "$app_src/rehearse.mjs" <<'JS'
// One real upload through the installed packages, in headless chromium; bounded to 90 s.
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { chromium } from 'playwright-core';
import { startApp } from './dist/server.mjs';

setTimeout(() => { console.error('release-rehearsal: the upload took over 90 s'); process.exit(1); }, 90_000).unref();
const content = `release rehearsal ${new Date().toISOString()}\n`.repeat(1000);
const app = await startApp(process.cwd());
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage();
  page.on('pageerror', (error) => console.error('  page error:', error.message));
  page.on('console', (message) => message.type() === 'error' && console.error('  page console:', message.text()));
  await page.goto(app.origin);
  await page.locator('input[type=file]').setInputFiles( { name: 'rehearsal.txt', mimeType: 'text/plain', buffer: Buffer.from(content) });
  const row = page.locator('p.file');
  await row.and(page.locator('[data-status=done], [data-status=error]')).waitFor({ timeout: 60_000 });
  if ((await row.getAttribute('data-status')) !== 'done') throw new Error(`upload failed: ${await row.textContent()}`);
  const key = await row.getAttribute('data-key');
  const stored = await app.storage.createClient().send(new GetObjectCommand({ Bucket: app.storage.bucket, Key: key }));
  const body = await stored.Body.transformToString();
  if (body !== content) throw new Error(`the stored object ${key} differs from the file (${body.length} bytes, ${content.length} sent)`);
  console.log(`  uploaded ${content.length} bytes through the installed packages in chromium: ${key}, stored bytes equal`);
} finally {
  await browser.close();
  await app.close();
}
JS

[ $# -gt 0 ] || set -- ""
for node_dir in "$@"; do
  path=$PATH
  [ -z "$node_dir" ] || path="$(cd "$node_dir" && pwd):$PATH"
  node_version=$(PATH=$path node --version)
  echo "release-rehearsal: 3. an app outside the workspace on Node $node_version"
  app="$scratch/app-$node_version"
  cp -r "$app_src" "$app"
  cd "$app"
  cat > package.json <<'JSON'
{ "name": "rehearsal-app", "private": true, "version": "0.0.0", "type": "module" }
JSON
  PATH=$path npm install --no-audit --no-fund --loglevel=error "$scratch"/tarballs/*.tgz \
    react@19 react-dom@19 @types/react@19 @types/react-dom@19 @types/node@20 typescript@5.9 esbuild@0.25 \
    playwright-core@1 >/dev/null
  PATH=$path npx --no-install tsc --noEmit --strict --target es2022 --lib es2022,dom,dom.iterable --types node \
    --module nodenext --moduleResolution nodenext --jsx react-jsx --skipLibCheck false src/server.ts src/page.tsx
  echo "  ok: tsc --strict"
  mkdir -p dist
  cp index.html dist/
  PATH=$path npx --no-install esbuild src/page.tsx --bundle --jsx=automatic --format=esm --platform=browser --outfile=dist/page.js \
    --log-level=warning
  PATH=$path npx --no-install esbuild src/server.ts --bundle --format=esm --platform=node --packages=external \
    --outfile=dist/server.mjs --log-level=warning
  PATH=$path node rehearse.mjs
  cd "$root"
done
echo "release-rehearsal: ok in $(( $(date +%s) - started )) s"
