import { createHash, randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { GetObjectCommand, ListMultipartUploadsCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { appFolder, copyApp, installPacked, startBun, startDeno, startNextEdge, startNode, startWorkerd, type AppDir, type RuntimeServer } from '@upbeam/runtimes';
import type { CompletedPart, MultipartUploadResponse, SignedPart, StoredPart } from '@upbeam/upload-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The runtime matrix: the packed @upbeam/upload-server (`pnpm pack`, installed as a user's install would:
// tools/runtimes) served by Node.js (node:http with `toNodeHandler`), Bun (`Bun.serve`), Deno (`Deno.serve`, the minimal permissions of docs/guide/runtimes.md) and
// workerd (the Worker bundled by `wrangler deploy`, no alias, no nodejs_compat) and Next.js's edge runtime (a
// route with `runtime = 'edge'`, `next build` then `next start`), one server process per runtime, each runtime from its npm package. Every flow against @upbeam/local-s3 (s3rver and its STS
// stand-in): this test's fetch plays the browser. Node's own runs are the other suites of this project.
//
// Node.js on every Node major CI runs (24, and the quick runs on 22 and 20): each flow through the node
// adapter. The other runtimes once per CI run: on Node 24, the full run of scripts/test.sh (wrangler needs
// Node >= 22.12; the quick runs would only repeat them). Locally: PATH=.node/24/bin:$PATH (scripts/setup.sh --node=24).
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);
const ALL_RUNTIMES = NODE_MAJOR >= 24;

const MiB = 1024 * 1024;
const PART = 5 * MiB;

const RUNTIMES: { name: string; start(app: AppDir): Promise<RuntimeServer> }[] = [
  { name: 'node', start: startNode },
  ...(ALL_RUNTIMES
    ? [
        { name: 'bun', start: startBun },
        { name: 'deno', start: startDeno },
        { name: 'workerd', start: startWorkerd },
        { name: 'next-edge', start: startNextEdge },
      ]
    : []),
];

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('runtime matrix: the packed package', () => {
  let storage: LocalS3;
  let reader: S3Client;
  let app: AppDir;

  beforeAll(async () => {
    storage = await startLocalS3();
    reader = storage.createClient();
    const dir = await appFolder();
    await installPacked(dir);
    await copyApp(dir);
    app = { dir, env: storage.env };
  }, 120_000);
  afterAll(async () => {
    reader?.destroy();
    await storage?.close();
    if (app) await rm(app.dir, { recursive: true, force: true });
  });

  describe.each(RUNTIMES)('on $name', ({ name, start }) => {
    let server: RuntimeServer;

    beforeAll(async () => {
      server = await start(app);
    }, 120_000);
    afterAll(async () => {
      await server?.close();
    });

    /** POSTs a preparation request as the browser does; resolves to status and JSON body. */
    async function call(body: object): Promise<{ status: number; body: any }> {
      const response = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const text = await response.text();
      expect(response.headers.get('content-type'), text).toMatch(/^application\/json/);
      return { status: response.status, body: JSON.parse(text) };
    }

    async function ok(body: object): Promise<any> {
      const answer = await call(body);
      expect(answer.status, `${JSON.stringify(answer.body)}\n${server.output()}`).toBe(200);
      return answer.body;
    }

    async function stored(key: string): Promise<Uint8Array> {
      const object = await reader.send(new GetObjectCommand({ Bucket: storage.bucket, Key: key }));
      return object.Body!.transformToByteArray();
    }

    const file = { filename: 'notes.txt', filetype: 'text/plain' };

    it('presigned: a signed PUT stores the bytes; the completion hook runs on the runtime', async () => {
      const bytes = randomBytes(1000);
      const prepared = await ok({ ...file, filesize: bytes.byteLength, _upload: { strategy: 'presigned' } });
      const put = await fetch(prepared.url, { method: 'PUT', body: bytes, headers: prepared.headers });
      expect(put.status, await put.text()).toBe(200);
      expect(sha256(await stored(prepared.key))).toBe(sha256(bytes));

      const completed = await ok({ ...file, _upload: { strategy: 'presigned', complete: { key: prepared.key, receipt: prepared.receipt } } });
      expect(completed).toEqual({ key: prepared.key, size: 1000, serverData: { runtime: name, key: prepared.key, size: 1000 } });
    });

    it('temporary-token: STS credentials write the key, a renewal gives fresh ones for the same key, completion', async () => {
      const bytes = randomBytes(2000);
      const prepared = await ok({ ...file, filesize: bytes.byteLength, _upload: { strategy: 'temporary-token' } });
      const renewed = await ok({ ...file, filesize: bytes.byteLength, _upload: { strategy: 'temporary-token', renew: { ticket: prepared.ticket } } });
      expect(renewed.key).toBe(prepared.key);
      expect(renewed.token.Credentials.AccessKeyId).not.toBe(prepared.token.Credentials.AccessKeyId);

      const { AccessKeyId, SecretAccessKey, SessionToken } = renewed.token.Credentials;
      const browser = new S3Client({
        region: renewed.region,
        endpoint: renewed.endpoint,
        forcePathStyle: true,
        credentials: { accessKeyId: AccessKeyId, secretAccessKey: SecretAccessKey, sessionToken: SessionToken },
      });
      await browser.send(new PutObjectCommand({ Bucket: renewed.bucket, Key: renewed.key, Body: bytes, ContentType: 'text/plain' }));
      browser.destroy();
      expect(sha256(await stored(renewed.key))).toBe(sha256(bytes));

      const completed = await ok({ ...file, _upload: { strategy: 'temporary-token', complete: { key: renewed.key, receipt: renewed.receipt } } });
      expect(completed.serverData).toEqual({ runtime: name, key: renewed.key, size: 2000 });
    });

    it('presigned multipart: create, sign parts, list, complete (the hook runs in it)', async () => {
      const bytes = randomBytes(PART + 10);
      const multipart = (operation: object) => ok({ ...file, filesize: bytes.byteLength, _upload: { strategy: 'presigned', multipart: operation } });
      const created = (await multipart({ action: 'create', partSize: PART })) as MultipartUploadResponse;
      const { parts: signed } = (await multipart({ action: 'sign-parts', ticket: created.ticket, partNumbers: [1, 2] })) as { parts: SignedPart[] };
      const parts: CompletedPart[] = await Promise.all(
        signed.map(async ({ partNumber, url, headers }) => {
          const response = await fetch(url, { method: 'PUT', body: bytes.subarray((partNumber - 1) * PART, partNumber * PART), headers });
          expect(response.status, await response.text()).toBe(200);
          return { partNumber, etag: response.headers.get('etag')! };
        }),
      );
      const listed = (await multipart({ action: 'list-parts', ticket: created.ticket })) as { parts: StoredPart[] };
      expect(listed.parts.map(({ partNumber, etag, size }) => ({ partNumber, etag, size }))).toEqual([
        { ...parts[0], size: PART },
        { ...parts[1], size: 10 },
      ]);
      const completed = await multipart({ action: 'complete', ticket: created.ticket, parts });
      expect(completed).toMatchObject({ key: created.key, serverData: { runtime: name, key: created.key, size: PART + 10 } });
      expect(sha256(await stored(created.key))).toBe(sha256(bytes));
    });

    it('presigned multipart: abort leaves no upload behind', async () => {
      const operation = (multipart: object) => ok({ ...file, filesize: PART + 1, _upload: { strategy: 'presigned', multipart } });
      const created = (await operation({ action: 'create', partSize: PART })) as MultipartUploadResponse;
      expect(await operation({ action: 'abort', ticket: created.ticket })).toEqual({ aborted: true });
      const { Uploads = [] } = await reader.send(new ListMultipartUploadsCommand({ Bucket: storage.bucket, Prefix: created.key }));
      expect(Uploads).toEqual([]);
    });

    it('a wrong request: a 4xx that says what is wrong', async () => {
      const { status, body } = await call({ filename: 'a.txt', _upload: { strategy: 'presigned' } });
      expect(status).toBe(400);
      expect(body).toMatchObject({ error: expect.any(String), code: expect.any(String) });
    });

    it('logged no unexpected error', () => {
      expect(server.output()).not.toMatch(/\[upbeam\] unexpected error|Uncaught|NotCapable|PermissionDenied/);
    });
  });

  it.runIf(ALL_RUNTIMES)('on deno with a narrow --allow-env alone: presigned PUTs work; what needs the S3 client is 500 (logged), no crash', async () => {
    const server = await startDeno(app, ['--allow-net=127.0.0.1', '--allow-env=S3_UPLOAD_*,PORT']);
    const prepare = (upload: object) =>
      fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ filename: 'a.txt', filetype: 'text/plain', filesize: PART + 1, _upload: { strategy: 'presigned', ...upload } }),
      });
    try {
      // The presigned PUT loads no S3 client: nothing reads another variable.
      expect((await prepare({})).status).toBe(200);
      // A multipart create does (the SDK's Node build reads AWS_* variables as it loads): refused by Deno.
      const refused = await prepare({ multipart: { action: 'create', partSize: PART } });
      expect(refused.status).toBe(500);
      expect(await refused.json()).toEqual({ error: 'Internal Server Error' });
      expect(server.output()).toMatch(/NotCapable: Requires env access/);
      // The process lives on.
      expect((await prepare({})).status).toBe(200);
      expect(server.output()).not.toMatch(/Uncaught/);
    } finally {
      await server.close();
    }
  });
});
