/**
 * `pnpm dev` and `pnpm start`: runs `next dev` or `next start` (any further arguments are passed on), after
 * deciding where uploads go.
 *
 * - With `S3_UPLOAD_KEY`, `S3_UPLOAD_SECRET`, `S3_UPLOAD_BUCKET` and `S3_UPLOAD_REGION` set (in the
 *   environment or in `.env.local`, read with Next.js's own loader), Next.js starts as is and the route uses
 *   that bucket.
 * - With none of them set, an embedded S3-compatible server (s3rver, `@upbeam/local-s3`) starts first on
 *   127.0.0.1 (`LOCAL_S3_PORT`, default 4569, next to the React example's 4568; objects in `LOCAL_S3_DIR`,
 *   default `.data/s3`), with a CORS rule for the page's origin and, on the same port, the STS stand-in the
 *   temporary-token strategy asks for credentials; Next.js gets its settings as `S3_UPLOAD_*` variables
 *   (`storage.env`), exactly as a real bucket's. A taken port is one line naming `LOCAL_S3_PORT`.
 *
 * Why a wrapper and not Next.js's `instrumentation.ts`: the storage server is a demo convenience that
 * must never start in a deployment, and it is a separate server with its own lifetime. Kept out of the
 * app, it needs no bundling of s3rver by Next.js, it starts before Next.js reads any setting, and the
 * app's code (`app/api/s3-upload/route.ts`) is exactly what a project with a real bucket ships.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import nextEnv from '@next/env';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';

const REQUIRED_ENV = ['S3_UPLOAD_KEY', 'S3_UPLOAD_SECRET', 'S3_UPLOAD_BUCKET', 'S3_UPLOAD_REGION'];

const appDir = fileURLToPath(new URL('..', import.meta.url));
const [command = 'dev', ...args] = process.argv.slice(2);
if (command !== 'dev' && command !== 'start') {
  console.error(`usage: with-local-s3.ts dev|start [next options]; got "${command}"`);
  process.exit(2);
}

// The same files, in the same order, as Next.js reads: .env.local wins over .env; the environment over both.
nextEnv.loadEnvConfig(appDir, command === 'dev', { info: () => {}, error: console.error });

/** The port Next.js will listen on: `-p`/`--port`, else `PORT`, else 3000. It is passed on explicitly. */
function portOf(options: string[]): { port: number; args: string[] } {
  for (let i = 0; i < options.length; i += 1) {
    const option = options[i]!;
    if (option === '-p' || option === '--port') return { port: Number(options[i + 1]), args: options };
    if (option.startsWith('--port=')) return { port: Number(option.slice('--port='.length)), args: options };
  }
  const port = Number(process.env.PORT ?? 3000);
  return { port, args: [...options, '--port', String(port)] };
}

const { port, args: nextArgs } = portOf(args);
const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
const present = REQUIRED_ENV.filter((name) => process.env[name]);
let storage: LocalS3 | undefined;

if (present.length === REQUIRED_ENV.length) {
  console.log(`\n  Uploads go to bucket ${process.env.S3_UPLOAD_BUCKET} (S3_UPLOAD_* settings)\n`);
} else if (present.length > 0) {
  const missing = REQUIRED_ENV.filter((name) => !process.env[name]);
  console.warn(`\n  Some S3_UPLOAD_* settings are set, not all (missing: ${missing.join(', ')}): the upload route will answer 500.\n`);
} else {
  const storagePort = Number(process.env.LOCAL_S3_PORT || 4569);
  storage = await startLocalS3({
    port: storagePort,
    directory: process.env.LOCAL_S3_DIR || fileURLToPath(new URL('../.data/s3', import.meta.url)),
    allowedOrigins: [`http://localhost:${port}`, `http://127.0.0.1:${port}`],
  }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EADDRINUSE') throw error;
    console.error(`Port ${storagePort} is taken: set LOCAL_S3_PORT to a free port (e.g. LOCAL_S3_PORT=${storagePort + 1}).`);
    process.exit(1);
  });
  Object.assign(env, storage.env);
  console.log(`\n  Uploads go to the embedded S3-compatible server ${storage.endpoint}, bucket "${storage.bucket}"`);
  console.log('  (set S3_UPLOAD_* in .env.local to use a real bucket)\n');
}

const nextBin = createRequire(import.meta.url).resolve('next/dist/bin/next');
const next = spawn(process.execPath, [nextBin, command, ...nextArgs], { cwd: appDir, env, stdio: 'inherit' });

async function stopStorage() {
  await storage?.close();
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (next.exitCode === null && next.signalCode === null) next.kill(signal);
  });
}
next.on('error', async (error) => {
  console.error('Could not start Next.js:', error);
  await stopStorage();
  process.exit(1);
});
next.on('exit', async (code, signal) => {
  await stopStorage();
  process.exit(code ?? (signal ? 0 : 1));
});
