import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, realpath, symlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The monorepo's root. */
export const REPO = resolve(import.meta.dirname, '../../..');

/** The published packages a server app needs, in dependency order. */
const PACKAGES = ['upload-protocol', 'upload-server'];

/**
 * Installs `@upbeam/upload-server` into `{dir}/node_modules` as a user's `npm install` would, from the
 * tarballs `pnpm pack` makes of the built packages (run `pnpm run build` first): only the published
 * files, `workspace:*` turned into versions. Their registry dependencies (`@aws-sdk/*`, `nanoid`, ...) are
 * linked from the workspace's install, the versions the lockfile pins, instead of downloaded again.
 */
export async function installPacked(dir: string): Promise<void> {
  const modules = join(dir, 'node_modules');
  await mkdir(join(modules, '@upbeam'), { recursive: true });
  const linked = new Set<string>();
  for (const name of PACKAGES) {
    const source = join(REPO, 'packages', name);
    const { stdout } = await run('pnpm', ['pack', '--pack-destination', dir], { cwd: source });
    const tarball = stdout.trim().split('\n').at(-1)!;
    const target = join(modules, '@upbeam', name);
    await mkdir(target, { recursive: true });
    await run('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
    const manifest = JSON.parse(await readFile(join(target, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    for (const dependency of Object.keys(manifest.dependencies ?? {})) {
      if (dependency.startsWith('@upbeam/') || linked.has(dependency)) continue;
      linked.add(dependency);
      const link = join(modules, dependency);
      await mkdir(join(link, '..'), { recursive: true });
      await symlink(await realpath(join(source, 'node_modules', dependency)), link, 'dir');
    }
  }
}

/**
 * Copies the app beside the installed packages: `tools/runtimes/app` (one handler module, an entry per
 * runtime, wrangler.toml) and `tools/runtimes/next-app` (the Next.js app of the edge route).
 */
export async function copyApp(dir: string): Promise<void> {
  for (const source of ['app', 'next-app']) {
    const from = join(REPO, 'tools/runtimes', source);
    for (const entry of await readdir(from)) await run('cp', ['-R', join(from, entry), join(dir, entry)]);
  }
}

/**
 * A fresh folder for an app under `tools/runtimes/.work/` (git-ignored): inside the repository, where the
 * Next.js build accepts the packages linked from the workspace's install (Turbopack compiles no file outside
 * its root, the folder of the lockfile).
 */
export async function appFolder(): Promise<string> {
  const work = join(REPO, 'tools/runtimes/.work');
  await mkdir(work, { recursive: true });
  return mkdtemp(join(work, 'app-'));
}
