/**
 * One server of the upload record's benchmark (`record.ts`) per process: `tsx record-server.ts VARIANT` listens
 * on 127.0.0.1 (a free port) and prints `{"port":N}`. Upbeam's handler on real storage (`RECORD_STORAGE`: JSON
 * of its settings), STS the local stub (`STS_STUB_URL`), mounted with `toNodeHandler`; both loaded from
 * `RECORD_SERVER_DIST`, a copy of upload-server's dist/ the benchmark took at its start, so that a rebuild of
 * the package meanwhile (its chunks change names) is not measured, nor breaks a server's lazy imports.
 * The benchmark's own requests (`/__bench/...`) are answered first (`bench-control.ts`).
 */
import '../lib/loopback-guard';
import { randomBytes } from 'node:crypto';
import { createServer, type RequestListener } from 'node:http';
import type { createUploadHandler as CreateUploadHandler } from '@upbeam/upload-server';
import type { toNodeHandler as ToNodeHandler } from '@upbeam/upload-server/node';
import { withBenchControl } from './bench-control';
import { createLeanPut, type LeanPutSettings } from './lean-put';

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

const dist = requiredEnv('RECORD_SERVER_DIST');
const [{ createUploadHandler }, { toNodeHandler }] = (await Promise.all([import(`${dist}/index.js`), import(`${dist}/adapters/node.js`)])) as [
  { createUploadHandler: typeof CreateUploadHandler },
  { toNodeHandler: typeof ToNodeHandler },
];
const storage = JSON.parse(requiredEnv('RECORD_STORAGE')) as LeanPutSettings & { forcePathStyle: true };
const stsEndpoint = requiredEnv('STS_STUB_URL');
const logError = (error: unknown) => console.error('[record server]', error);
const base = { ...storage, stsEndpoint, onError: logError };
const listen = (handler: (request: Request) => Promise<Response>): RequestListener => toNodeHandler(handler, { onError: logError }) as RequestListener;

/** The handlers under test, by name: the pairs without and with a hook (both strategies take the same handler). */
const VARIANTS: Record<string, () => RequestListener> = {
  'record-presigned-plain': () => listen(createUploadHandler(base)),
  'record-presigned-hook': () => listen(createUploadHandler({ ...base, onUploadComplete: () => {} })),
  'record-token-plain': () => listen(createUploadHandler(base)),
  'record-token-hook': () => listen(createUploadHandler({ ...base, onUploadComplete: () => {} })),
  /** Bench only: no hook, and beside it a record-sized PUT without the SDK (`lean-put.ts`): the write's transport alone. */
  'record-presigned-lean': () => {
    const handler = createUploadHandler(base);
    const put = createLeanPut(storage);
    const body = 'r'.repeat(220);
    return listen(async (request) => {
      const key = `.upbeam/uploads/${randomBytes(32).toString('base64url')}/${Math.floor(Date.now() / 1000)}.0.${randomBytes(9).toString('base64url')}`;
      const [answer] = await Promise.all([handler(request), put(key, body)]);
      return answer;
    });
  },
};

const variant = process.argv[2] ?? '';
const make = VARIANTS[variant];
if (!make) {
  console.error(`unknown variant "${variant}"; known: ${Object.keys(VARIANTS).join(', ')}`);
  process.exit(2);
}
const server = createServer(withBenchControl(make()));
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }));
});
// The benchmark ends this process by closing its stdin (or with a signal).
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
