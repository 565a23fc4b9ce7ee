import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { freePort, startServer, type RuntimeServer } from './server';

const run = promisify(execFile);
const MODULES = resolve(import.meta.dirname, '../node_modules');

/** Each runtime's binary, from its npm package (a devDependency of this package). */
export const BINARIES = {
  bun: join(MODULES, 'bun/bin/bun.exe'),
  deno: join(MODULES, 'deno/deno'),
  workerd: join(MODULES, 'workerd/bin/workerd'),
  wrangler: join(MODULES, 'wrangler/bin/wrangler.js'),
  next: join(MODULES, 'next/dist/bin/next'),
} as const;

/** Where the app and the packed packages are (`installPacked`, `copyApp`), and the settings (`S3_UPLOAD_*`). */
export interface AppDir {
  dir: string;
  env: Record<string, string>;
}

/** Node.js: `node node.js` (node:http and `toNodeHandler`), on the Node that runs the tests. */
export async function startNode({ dir, env }: AppDir): Promise<RuntimeServer> {
  const port = await freePort();
  return startServer(process.execPath, ['node.js'], { cwd: dir, port, env: { ...env, PORT: String(port) } });
}

/** Bun: `bun bun.js`, as a user runs it. */
export async function startBun({ dir, env }: AppDir): Promise<RuntimeServer> {
  const port = await freePort();
  return startServer(BINARIES.bun, ['bun.js'], { cwd: dir, port, env: { ...env, PORT: String(port) } });
}

/**
 * The permissions the README gives for Deno (section "Deno"): the network (storage, and listening), the
 * handler's own variables (`S3_UPLOAD_*`) and `PORT`; `--ignore-env`: every other variable reads as unset
 * (the AWS SDK's Node build reads several, `AWS_LAMBDA_*` among them, as it loads); `osRelease`, which the
 * SDK's user agent names. No `--allow-all`, no file access.
 */
export const DENO_PERMISSIONS = ['--allow-net=127.0.0.1', '--allow-env=S3_UPLOAD_*,PORT', '--ignore-env', '--allow-sys=osRelease'];

/**
 * Deno: `deno run {permissions} deno.js`, its npm packages from `node_modules` (`--node-modules-dir=manual`).
 * @param permissions - Deno's permission flags. @default DENO_PERMISSIONS
 */
export async function startDeno({ dir, env }: AppDir, permissions: readonly string[] = DENO_PERMISSIONS): Promise<RuntimeServer> {
  const port = await freePort();
  // Deno's own cache inside the app's folder, and no update check (no network but 127.0.0.1).
  return startServer(BINARIES.deno, ['run', ...permissions, '--node-modules-dir=manual', '--no-config', 'deno.js'], {
    cwd: dir,
    port,
    env: { ...env, PORT: String(port), DENO_NO_UPDATE_CHECK: '1', DENO_DIR: join(dir, '.deno') },
  });
}

/**
 * workerd: the Worker bundled by `wrangler deploy --dry-run` as for a deploy (the app's `wrangler.toml`: no
 * alias, no `nodejs_compat`), served by workerd with the settings as the Worker's text bindings (`env`).
 * Outbound requests go to any address, 127.0.0.1 included (workerd's default network refuses local ones).
 * Wrangler needs Node >= 22.12.
 */
export async function startWorkerd({ dir, env }: AppDir): Promise<RuntimeServer> {
  await run(process.execPath, [BINARIES.wrangler, 'deploy', '--dry-run', '--outdir', 'out'], {
    cwd: dir,
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true' },
  });
  const port = await freePort();
  const bindings = Object.entries(env)
    .map(([name, value]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(value)})`)
    .join(', ');
  await writeFile(
    join(dir, 'workerd.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = (
      modules = [(name = "worker.js", esModule = embed "out/worker.js")],
      compatibilityDate = "2026-11-01",
      bindings = [${bindings}],
      globalOutbound = "net",
    )),
    (name = "net", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
`,
  );
  return startServer(BINARIES.workerd, ['serve', 'workerd.capnp', '--verbose'], { cwd: dir, port });
}

/**
 * Next.js on the edge runtime: `next build` (Turbopack) of `next-app` (one route, `app/api/upload`, with
 * `runtime = 'edge'`), then `next start`. Next.js resolves the package's `edge-light` build. Settings come
 * from `process.env` (`S3_UPLOAD_*`).
 */
export async function startNextEdge({ dir, env }: AppDir): Promise<RuntimeServer> {
  const nextEnv = { ...process.env, ...env, NEXT_TELEMETRY_DISABLED: '1' };
  await run(process.execPath, [BINARIES.next, 'build'], { cwd: dir, env: nextEnv });
  const port = await freePort();
  return startServer(process.execPath, [BINARIES.next, 'start', '--port', String(port), '--hostname', '127.0.0.1'], {
    cwd: dir,
    port,
    env,
    path: '/api/upload',
  });
}
