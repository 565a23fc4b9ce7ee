/**
 * One preparation endpoint per process, for the preparation benchmark: `tsx server.ts VARIANT` listens on
 * 127.0.0.1 (a free port) and prints `{"port":N}`. Every Fetch handler is mounted with the same adapter,
 * Upbeam's own `toNodeHandler` (as an app on node:http or Express mounts it): a Fetch handler of others pays
 * its Request/Response path, measured on its own by `bare-fetch`; Upbeam's handler is called through its own
 * entry, without them (`packages/upload-server/src/incoming-request.ts`). STS, where a variant needs it, is the local
 * stub at STS_STUB_URL. The benchmark's own requests (`/__bench/...`: CPU time, profiler) are answered
 * before the variant's handler (`./bench-control.ts`).
 */
import '../lib/loopback-guard';
import { randomUUID } from 'node:crypto';
import { createServer, type RequestListener } from 'node:http';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { createUploadHandler } from '@upbeam/upload-server';
import { toNodeHandler } from '@upbeam/upload-server/node';
import { nanoid } from 'nanoid';
import { APIRoute } from 'next-s3-upload';
import { nextPagesRoute, readBody } from '../lib/next-pages-route';
import { withBenchControl } from './bench-control';
import { checkPreparedSigner, createPreparedSigner } from './prepared-signer';

/** Storage settings of every variant: presigning needs no network; STS goes to the local stub. */
export const BENCH_STORAGE = {
  accessKeyId: 'AKIDBENCHMARKEXAMPLE',
  secretAccessKey: 'benchmark/secret/key/EXAMPLEKEY0000000000',
  bucket: 'bench-uploads',
  region: 'us-east-1',
} as const;

/** What the bare handlers answer: a presigned answer of the usual size, made once. */
const FIXED_ANSWER = JSON.stringify({
  key: 'next-s3-uploads/V1StGXR8_Z5jdHi6B-myT/holiday-photo.jpg',
  bucket: BENCH_STORAGE.bucket,
  region: BENCH_STORAGE.region,
  url: `https://${BENCH_STORAGE.bucket}.s3.us-east-1.amazonaws.com/next-s3-uploads/V1StGXR8_Z5jdHi6B-myT/holiday-photo.jpg?${'X-Amz-Param=value&'.repeat(28)}`,
  headers: { 'Content-Type': 'image/jpeg', 'Cache-Control': 'max-age=630720000' },
});

const logError = (error: unknown) => console.error('[prepare server]', error);

const fetchListener = (handler: (request: Request) => Promise<Response>): RequestListener =>
  toNodeHandler(handler, { onError: logError }) as RequestListener;

const silent = { onError: logError };

/** The handlers under test, by name. */
const VARIANTS: Record<string, () => RequestListener> = {
  /** Ceiling: node:http reads and parses the JSON body and answers a fixed JSON object. */
  'bare-http': () => async (request, response) => {
    JSON.parse(await readBody(request));
    response.writeHead(200, { 'content-type': 'application/json' }).end(FIXED_ANSWER);
  },
  /** Ceiling of a Fetch handler: the same work through the Request/Response adapter. */
  'bare-fetch': () =>
    fetchListener(async (request) => {
      await request.json();
      return new Response(FIXED_ANSWER, { headers: { 'content-type': 'application/json' } });
    }),
  'upbeam-presigned': () => fetchListener(createUploadHandler({ ...BENCH_STORAGE, ...silent })),
  /** Upbeam presigned from another build (`PREPARE_BASELINE_DIST`: its dist/ folder), to compare builds in one run. */
  'upbeam-presigned-baseline': () => {
    const listener = (async () => {
      const dist = requiredEnv('PREPARE_BASELINE_DIST');
      const [{ createUploadHandler: create }, { toNodeHandler: toNode }] = await Promise.all([import(`${dist}/index.js`), import(`${dist}/adapters/node.js`)]);
      return toNode(create({ ...BENCH_STORAGE, ...silent }), { onError: logError }) as RequestListener;
    })();
    return (request, response) => void listener.then((listen) => listen(request, response));
  },
  'upbeam-token': () =>
    fetchListener(createUploadHandler({ ...BENCH_STORAGE, ...silent, stsEndpoint: requiredEnv('STS_STUB_URL') })),
  /** What next-s3-upload does per request, on one shared client: `getSignedUrl` with a new command. */
  getsignedurl: () => {
    const client = new S3Client({ region: BENCH_STORAGE.region, credentials: BENCH_STORAGE });
    return fetchListener(async (request) => {
      const body = (await request.json()) as { filename: string; filetype: string };
      const key = `next-s3-uploads/${randomUUID()}/${body.filename.replace(/[^0-9a-zA-Z!_.*'()/-]/g, ' ').replace(/\s+/g, '-')}`;
      const url = await getSignedUrl(
        client,
        new PutObjectCommand({ Bucket: BENCH_STORAGE.bucket, Key: key, ContentType: body.filetype, CacheControl: 'max-age=630720000' }),
        { expiresIn: 3600 },
      );
      return Response.json({ key, bucket: BENCH_STORAGE.bucket, region: BENCH_STORAGE.region, url });
    });
  },
  /** Upbeam's signing before `sigv4-query.ts` (bench only): the presigned answer from one SDK presigner built once. */
  'prepared-signer': () => {
    const sign = createPreparedSigner(BENCH_STORAGE);
    return fetchListener(async (request) => {
      const body = (await request.json()) as { filename: string; filetype: string };
      const key = `next-s3-uploads/${nanoid()}/${body.filename.replace(/[^A-Za-z0-9!\-_.*'()]/g, ' ').trim().replace(/\s+/g, '-')}`;
      const url = await sign(key, body.filetype);
      const headers = { 'Content-Type': body.filetype, 'Cache-Control': 'max-age=630720000' };
      return Response.json({ key, bucket: BENCH_STORAGE.bucket, region: BENCH_STORAGE.region, url, headers });
    });
  },
  /** next-s3-upload 0.3.4 itself (`APIRoute`): a new S3Client (presigned) or STSClient (token) per request. */
  'next-presigned': () => nextPagesRoute(APIRoute.configure({ ...BENCH_STORAGE })),
  // Its STSClient takes no endpoint: AWS_ENDPOINT_URL_STS (set by the benchmark) sends it to the stub.
  'next-token': () => nextPagesRoute(APIRoute.configure({ ...BENCH_STORAGE })),
};

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

const variant = process.argv[2] ?? '';
const make = VARIANTS[variant];
if (!make) {
  console.error(`unknown variant "${variant}"; known: ${Object.keys(VARIANTS).join(', ')}`);
  process.exit(2);
}
if (variant === 'prepared-signer') await checkPreparedSigner(BENCH_STORAGE);
const server = createServer(withBenchControl(make()));
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }));
});
// The benchmark ends this process by closing its stdin (or with a signal).
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
