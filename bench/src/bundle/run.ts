/**
 * Benchmark 1, client bundle size: what an app ships to the browser for each upload client, bundled by
 * esbuild (minified, ES2022, browser, `process.env.NODE_ENV` = production, react external, code
 * splitting so that a dynamic `import()` becomes a chunk of its own), then gzip (level 9) and brotli
 * (quality 11) per chunk, as a server would send them. Sizes are deterministic: one build each.
 */
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { describeMachine, packageVersion } from '../lib/machine';
import { BENCH_DIR, TMP_DIR } from '../lib/paths';
import { saveResult, type ResultMeta } from '../lib/results';

/** One client to measure: the import an app writes. */
export interface BundleEntry {
  id: string;
  label: string;
  /** The module an app would write: it imports and re-exports the client's entry point. */
  source: string;
}

export const BUNDLE_ENTRIES: BundleEntry[] = [
  {
    id: 'upbeam-hook',
    label: 'Upbeam `useS3Upload` (@upbeam/upload-react)',
    source: `export { useS3Upload } from '@upbeam/upload-react';`,
  },
  {
    id: 'upbeam-client',
    label: 'Upbeam `uploadFile` (@upbeam/upload-client, no React)',
    source: `export { uploadFile } from '@upbeam/upload-client';`,
  },
  {
    id: 'next-presigned',
    label: 'next-s3-upload `usePresignedUpload`',
    source: `export { usePresignedUpload } from 'next-s3-upload';`,
  },
  {
    id: 'next-s3',
    label: 'next-s3-upload `useS3Upload`',
    source: `export { useS3Upload } from 'next-s3-upload';`,
  },
  {
    id: 'better-upload',
    label: '@better-upload/client `useUploadFile`',
    source: `export { useUploadFile } from '@better-upload/client';`,
  },
  {
    // Issue #20: the ready-made components, beside uploadthing's (better-upload's components are shadcn-style
    // source copied into the app, not a package: there is nothing to import for a row). Stylesheets apart:
    // Upbeam's components.css is a size-limit budget (`.size-limit.js`).
    id: 'upbeam-components',
    label: 'Upbeam components `Uploader`, `UploadDropzone`, `UploadButton`, `UploadList` (@upbeam/upload-react/components)',
    source: `export { Uploader, UploadDropzone, UploadButton, UploadList } from '@upbeam/upload-react/components';`,
  },
  {
    id: 'uploadthing-react',
    label: '@uploadthing/react `UploadButton`, `UploadDropzone`',
    source: `export { UploadButton, UploadDropzone, useUploadThing } from '@uploadthing/react';`,
  },
  {
    id: 'floor',
    label: 'floor: 28-line XHR PUT with progress (`bench/src/bundle/floor.ts`)',
    source: `export { uploadWithProgress } from './floor';`,
  },
];

/** Sizes of a set of chunks, in bytes: minified, and each chunk compressed on its own. */
export interface Sizes {
  files: number;
  minified: number;
  /** Each chunk gzipped on its own, summed: as a server sends esbuild's chunks. */
  gzip: number;
  /** The same chunks joined into one file and gzipped: what compressing them apart costs is the difference. */
  gzipOneFile: number;
  brotli: number;
}

/**
 * One chunk loaded with `import()`, with the chunks it imports statically (those not loaded at first):
 * what the page downloads when the code first asks for it.
 */
export interface LazyChunk {
  /** The package file it is made of, hash removed (`temporary-token`), else the package of its largest input. */
  name: string;
  sizes: Sizes;
  /** Names of the lazy chunks it may load in turn with `import()`. */
  loads: string[];
  /** All it may download, its own `import()`s followed to the end: gzip bytes, each chunk gzipped on its own and counted once. */
  gzipWithLoads: number;
  /** The same chunks joined into one file and gzipped (as size-limit measures a budget). */
  gzipWithLoadsOneFile: number;
}

export interface BundleRow {
  id: string;
  label: string;
  /** What the page loads when the client is imported. */
  initial: Sizes;
  /** Chunks loaded later with `import()` (the temporary-token path's AWS SDK), if any. */
  lazy?: Sizes;
  /** The same lazy chunks, one `import()` at a time. */
  lazyChunks?: LazyChunk[];
}

/** One byte budget of the repository's `.size-limit.js`, as `size-limit --json` measured it (gzip bytes). */
export interface Budget {
  name: string;
  size: number;
  limit: number;
  passed: boolean;
}

export interface BundleResult extends ResultMeta {
  settings: string;
  rows: BundleRow[];
  /** The size-limit budgets (`pnpm size`), measured in the same run; absent when size-limit failed to run. */
  budgets?: Budget[];
}

/** Runs the repository's size-limit (the budgets CI holds) and reads its JSON. */
async function measureBudgets(): Promise<Budget[] | undefined> {
  try {
    const { stdout } = await promisify(execFile)('npx', ['size-limit', '--json'], { cwd: join(BENCH_DIR, '..'), timeout: 120_000 }).catch(
      // size-limit exits 1 when a budget is exceeded: its JSON is still the answer.
      (error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }),
    );
    const answer = JSON.parse(stdout.slice(stdout.search(/[[{]/))) as
      | { name: string; size: number; sizeLimit: number; passed: boolean }[]
      | { error: string };
    if (!Array.isArray(answer)) throw new Error(answer.error.split('\n')[0]);
    const rows = answer;
    return rows.map(({ name, size, sizeLimit, passed }) => ({ name, size, limit: sizeLimit, passed }));
  } catch (error) {
    console.error(`[bundle] size-limit did not run: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

const EXTERNAL = ['react', 'react-dom', 'react/jsx-runtime', 'react-dom/client'];

function sizesOf(contents: Uint8Array[]): Sizes {
  const joined = Buffer.concat(contents.map((bytes) => Buffer.from(bytes)));
  const sizes: Sizes = { files: contents.length, minified: 0, gzip: 0, gzipOneFile: gzipSync(joined, { level: 9 }).byteLength, brotli: 0 };
  for (const bytes of contents) {
    sizes.minified += bytes.byteLength;
    sizes.gzip += gzipSync(bytes, { level: 9 }).byteLength;
    sizes.brotli += brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
      },
    }).byteLength;
  }
  return sizes;
}

/** Splits the outputs into what the entry loads at once (static imports, transitively) and the rest. */
function splitChunks(metafile: Metafile, entryOutput: string): { initial: Set<string>; lazy: Set<string> } {
  const initial = new Set<string>();
  const visit = (path: string) => {
    if (initial.has(path)) return;
    initial.add(path);
    for (const imported of metafile.outputs[path]?.imports ?? []) {
      if (!imported.external && imported.kind === 'import-statement') visit(imported.path);
    }
  };
  visit(entryOutput);
  const lazy = new Set(
    Object.keys(metafile.outputs).filter((path) => path.endsWith('.js') && !initial.has(path)),
  );
  return { initial, lazy };
}

/**
 * Names a chunk and the chunks it imports for the report: an Upbeam package file's name
 * (`temporary-token-QSY3HAWQ.js` -> `upload-client/temporary-token`), else the package of the largest input.
 */
function chunkName(outputs: Metafile['outputs'][string][]): string {
  const inputs = outputs.flatMap((output) => Object.entries(output.inputs)).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput);
  for (const [path] of inputs) {
    const named = /(?:^|\/)packages\/([\w-]+)\/dist\/([\w-]+?)(?:-[A-Z0-9]{8})?\.js$/.exec(path);
    if (named && named[2] !== 'chunk' && named[2] !== 'index') return `${named[1]}/${named[2]}`;
  }
  const largest = inputs[0]?.[0] ?? '';
  const parts = largest.split('node_modules/');
  const last = parts[parts.length - 1] ?? largest;
  const segments = last.split('/');
  return parts.length > 1 ? (segments[0]!.startsWith('@') ? `${segments[0]}/${segments[1]}` : segments[0]!) : last;
}

/** Each chunk loaded with `import()`: its static closure outside `initial`, its size, and what it loads in turn. */
function lazyChunks(metafile: Metafile, initial: Set<string>, sizesOfPaths: (paths: Set<string>) => Sizes): LazyChunk[] {
  const outputs = metafile.outputs;
  const roots = new Set<string>();
  for (const output of Object.values(outputs)) {
    for (const imported of output.imports) if (!imported.external && imported.kind === 'dynamic-import') roots.add(imported.path);
  }
  const closure = (root: string) => {
    const paths = new Set<string>();
    const visit = (path: string) => {
      if (initial.has(path) || paths.has(path)) return;
      paths.add(path);
      for (const imported of outputs[path]?.imports ?? []) {
        if (!imported.external && imported.kind === 'import-statement') visit(imported.path);
      }
    };
    visit(root);
    return paths;
  };
  const dynamicFrom = (paths: Set<string>) =>
    [...paths].flatMap((path) =>
      (outputs[path]?.imports ?? []).filter((imported) => !imported.external && imported.kind === 'dynamic-import').map((imported) => imported.path),
    );
  return [...roots].map((root) => {
    const own = closure(root);
    const everything = new Set(own);
    for (let queue = dynamicFrom(own); queue.length > 0; ) {
      const next = queue.shift()!;
      const more = [...closure(next)].filter((path) => !everything.has(path));
      for (const path of more) everything.add(path);
      queue.push(...dynamicFrom(new Set(more)));
    }
    const nameOf = (path: string) => chunkName([...closure(path)].map((member) => outputs[member]!));
    return {
      name: nameOf(root),
      sizes: sizesOfPaths(own),
      loads: [...new Set(dynamicFrom(own))].map(nameOf),
      gzipWithLoads: sizesOfPaths(everything).gzip,
      gzipWithLoadsOneFile: sizesOfPaths(everything).gzipOneFile,
    };
  });
}

export async function bundleEntry(entry: BundleEntry): Promise<BundleRow> {
  const outdir = join(TMP_DIR, 'bundle', entry.id);
  await rm(outdir, { recursive: true, force: true });
  const result = await build({
    stdin: { contents: entry.source, resolveDir: join(BENCH_DIR, 'src', 'bundle'), sourcefile: `entry-${entry.id}.ts`, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    splitting: true,
    platform: 'browser',
    target: 'es2022',
    define: { 'process.env.NODE_ENV': '"production"' },
    external: EXTERNAL,
    outdir,
    entryNames: 'entry',
    chunkNames: 'chunk-[hash]',
    metafile: true,
    write: false,
    logLevel: 'error',
  });
  const byPath = new Map(result.outputFiles.map((file) => [file.path, file.contents]));
  const relative = (absolute: string) => absolute.slice(BENCH_DIR.length + 1);
  // The app's entry, by its name (`entryNames`): a chunk split at an `import()` has an `entryPoint` too (the
  // module imported), and esbuild may list one first.
  const entryOutput = Object.keys(result.metafile.outputs).find((path) => basename(path) === 'entry.js');
  if (!entryOutput) throw new Error(`esbuild produced no entry chunk for ${entry.id}`);
  const { initial, lazy } = splitChunks(result.metafile, entryOutput);
  const contents = (paths: Set<string>) =>
    [...paths].map((path) => {
      const file = [...byPath.entries()].find(([absolute]) => relative(absolute) === path || absolute.endsWith(`/${path}`));
      if (!file) throw new Error(`no output ${path}`);
      return file[1];
    });
  return {
    id: entry.id,
    label: entry.label,
    initial: sizesOf(contents(initial)),
    ...(lazy.size > 0
      ? { lazy: sizesOf(contents(lazy)), lazyChunks: lazyChunks(result.metafile, initial, (paths) => sizesOf(contents(paths))) }
      : {}),
  };
}

export async function runBundleBench(): Promise<BundleResult> {
  const started = performance.now();
  const rows: BundleRow[] = [];
  for (const entry of BUNDLE_ENTRIES) {
    const row = await bundleEntry(entry);
    rows.push(row);
    const lazyText = (row.lazyChunks ?? []).map(
      (chunk) => `${chunk.name} ${chunk.sizes.gzip} B (with its loads ${chunk.gzipWithLoads} B, joined ${chunk.gzipWithLoadsOneFile} B, ${chunk.sizes.files} chunks)`,
    );
    console.log(`[bundle] ${entry.id}: initial ${row.initial.gzip} B gzip${lazyText.length > 0 ? `; lazy: ${lazyText.join(', ')}` : ''}`);
  }
  const budgets = await measureBudgets();
  for (const budget of budgets ?? []) {
    console.log(`[bundle] size-limit: ${budget.name}: ${budget.size} B of ${budget.limit} B${budget.passed ? '' : ' EXCEEDED'}`);
  }
  const result: BundleResult = {
    ...(budgets ? { budgets } : {}),
    machine: describeMachine(['esbuild', 'next-s3-upload', '@better-upload/client', '@uploadthing/react', '@aws-sdk/client-s3']),
    seconds: (performance.now() - started) / 1000,
    settings: `esbuild ${packageVersion('esbuild')}: bundle, minify, ESM, code splitting, platform browser, target es2022, process.env.NODE_ENV="production", external react/react-dom; gzip level 9 and brotli quality 11 per chunk`,
    rows,
  };
  await saveResult('bundle', result);
  return result;
}
