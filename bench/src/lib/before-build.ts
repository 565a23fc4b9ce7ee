/**
 * Another build of the browser packages, for a before/after in one run: `BENCH_BEFORE_ROOT=<another checkout>`
 * (installed and built: its `packages/*\/dist`) makes the many-files and upload benchmarks build their page a second
 * time with `@upbeam/upload-protocol`, `-client` and `-react` taken from that checkout, and run each Upbeam mode
 * against both pages in the same rounds (modes `*-before`). Everything else those builds import (React, TanStack
 * Virtual) resolves as it does from this checkout's package folders, so the page holds one React; the page's own
 * code, the floors and the app's server (`@upbeam/upload-server`, in the benchmark's process) stay this checkout's.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Plugin as EsbuildPlugin } from 'esbuild';
import type { Plugin as VitePlugin } from 'vite';
import { BENCH_DIR } from './paths';

const PACKAGES_DIR = join(BENCH_DIR, '..', 'packages');

/** The packages a page bundles, by folder (`packages/<folder>`, published as `@upbeam/<folder>`). */
const BROWSER_PACKAGES = ['upload-protocol', 'upload-client', 'upload-react'];

/** Another build, by package folder: the folder holding that build's `dist/` (and, in a checkout, its package.json). */
export type BeforeBuilds = Record<string, string>;

/** The checkout named by `BENCH_BEFORE_ROOT`, or `undefined`. */
export function beforeRoot(): string | undefined {
  const root = process.env.BENCH_BEFORE_ROOT?.trim();
  return root ? resolve(root) : undefined;
}

/** The browser packages of the checkout at `root` whose `dist/` is built. */
export function beforeBuildsOf(root: string): BeforeBuilds {
  const builds: BeforeBuilds = {};
  for (const folder of BROWSER_PACKAGES) {
    const packageDir = join(root, 'packages', folder);
    if (!existsSync(join(packageDir, 'dist'))) throw new Error(`BENCH_BEFORE_ROOT: ${packageDir}/dist is missing (build that checkout first)`);
    builds[folder] = packageDir;
  }
  return builds;
}

/** The short commit of the checkout at `root` (and `+dirty` when its packages' sources have uncommitted changes). */
export function commitOf(root: string): string {
  try {
    const commit = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['-C', root, 'status', '--porcelain', '--', 'packages'], { encoding: 'utf8' }).trim();
    return dirty ? `${commit}+dirty` : commit;
  } catch {
    return 'unknown';
  }
}

/** What a result run against another checkout records of it, and the command that ran it. */
export interface BeforeRun {
  root: string;
  commit: string;
  /** `BENCH_BEFORE_LABEL` (e.g. `issue 43`): what the report's title calls the change. */
  label?: string;
  /** The benchmark's command with the environment variables (`BENCH_*`, `<prefix>*`) it ran with. */
  command: string;
}

/** {@link BeforeRun} of the checkout at `root`, for the benchmark script `script` whose settings start with `prefix`. */
export function beforeRunOf(root: string, script: string, prefix: string): BeforeRun {
  const settings = Object.entries(process.env)
    .filter(([name]) => name.startsWith('BENCH_') || name.startsWith(prefix))
    .sort(([a], [b]) => (a === 'BENCH_BEFORE_ROOT' ? -1 : b === 'BENCH_BEFORE_ROOT' ? 1 : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${/^[\w./,:-]*$/.test(value ?? '') ? value : JSON.stringify(value)}`);
  const label = process.env.BENCH_BEFORE_LABEL?.trim();
  return { root, commit: commitOf(root), ...(label ? { label } : {}), command: `${settings.join(' ')} pnpm --filter @upbeam/bench ${script}` };
}

/** The file an export of a package resolves to for a browser ESM import (`exports` of its package.json, else `dist/<subpath>.js`). */
function exportFile(packageDir: string, subpath: string): string {
  const manifest = join(packageDir, 'package.json');
  if (existsSync(manifest)) {
    const exports = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: Record<string, unknown> }).exports ?? {};
    let entry = exports[subpath === '' ? '.' : `./${subpath}`];
    while (entry && typeof entry === 'object') {
      const conditions = entry as Record<string, unknown>;
      entry = conditions.browser ?? conditions.import ?? conditions.default;
    }
    if (typeof entry === 'string') return join(packageDir, entry);
  }
  return join(packageDir, 'dist', `${subpath || 'index'}.js`);
}

/**
 * Where `specifier` imported from `importer` resolves in the before page: `{ path }` for a package of the other
 * build, `{ resolveDir }` for another bare import made by that build's files (resolve it from there, this checkout's
 * package folder), `undefined` for everything else (resolved as usual).
 */
export function resolveBefore(builds: BeforeBuilds, specifier: string, importer: string): { path: string } | { resolveDir: string } | undefined {
  const match = /^@upbeam\/([\w-]+)(?:\/(.+))?$/.exec(specifier);
  if (match && builds[match[1]!]) return { path: exportFile(builds[match[1]!]!, match[2] ?? '') };
  if (/^[./]/.test(specifier) || !importer) return undefined;
  for (const [folder, packageDir] of Object.entries(builds)) {
    if (importer.startsWith(join(packageDir, 'dist'))) return { resolveDir: join(PACKAGES_DIR, folder) };
  }
  return undefined;
}

/** {@link resolveBefore} as an esbuild plugin (the many-files page). */
export function beforeEsbuildPlugin(builds: BeforeBuilds): EsbuildPlugin {
  return {
    name: 'before-build',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async ({ path, importer, kind, pluginData }) => {
        if (pluginData === 'before-build') return undefined;
        const found = resolveBefore(builds, path, importer);
        if (!found) return undefined;
        if ('path' in found) return { path: found.path };
        const resolved = await build.resolve(path, { kind, resolveDir: found.resolveDir, pluginData: 'before-build' });
        return resolved.errors.length > 0 ? { errors: resolved.errors } : { path: resolved.path, external: resolved.external };
      });
    },
  };
}

/** {@link resolveBefore} as a Vite plugin (the upload page). */
export function beforeVitePlugin(builds: BeforeBuilds): VitePlugin {
  return {
    name: 'before-build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      const found = resolveBefore(builds, source, importer ?? '');
      if (!found) return null;
      if ('path' in found) return found.path;
      return this.resolve(source, join(found.resolveDir, 'package.json'), { ...options, skipSelf: true });
    },
  };
}
