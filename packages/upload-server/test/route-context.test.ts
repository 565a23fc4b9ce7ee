import { randomBytes } from 'node:crypto';
import { createTestBucket } from '@upbeam/ceph-rgw';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createUploadHandler, defineRoute, defineRoutes, UploadError, type UploadHandler } from '../src/index';

// A route's typed context on real storage (s3rver, Ceph radosgw): what `onBeforeUpload` returned at
// preparation (the user of that request) is the `context` of `onUploadComplete`, which runs in another
// request: carried, signed, in the receipt of a single PUT and in the ticket of a multipart upload. A
// browser that changes it is refused.

const connection = inject('radosgw');
type Storage = Pick<LocalS3, 'handlerSettings' | 'close'>;
const storages: { name: string; start(): Promise<Storage> }[] = [
  { name: 's3rver', start: () => startLocalS3() },
  ...(connection ? [{ name: 'radosgw', start: () => createTestBucket(connection, 'context') }] : []),
];

const routes = defineRoutes({
  avatar: defineRoute({
    onBeforeUpload: ({ request }) => {
      const userId = request.headers.get('x-user-id');
      if (!userId) throw new UploadError('UNAUTHORIZED', 'Sign in to upload.');
      return { userId };
    },
    onUploadComplete: ({ key, source, context }) => ({ key, owner: source === 'page' ? context.userId : undefined }),
  }),
});

describe.each(storages)('route context on $name', ({ start }) => {
  let storage: Storage;
  let handler: UploadHandler;

  beforeAll(async () => {
    storage = await start();
    // s3rver answers AbortMultipartUpload with 405, which the handler logs: not worth printing.
    handler = createUploadHandler({ ...storage.handlerSettings, routes, onError: () => {} });
  }, 60_000);
  afterAll(async () => {
    await storage?.close();
  });

  const call = async (userId: string, marker: object, extra: object = {}) => {
    const response = await handler(
      new Request('http://127.0.0.1/api/s3-upload', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-user-id': userId },
        body: JSON.stringify({ route: 'avatar', filename: 'a.png', filetype: 'image/png', filesize: 10, _upload: { strategy: 'presigned', ...marker }, ...extra }),
      }),
    );
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  const put = (url: string, headers: Record<string, string>) => fetch(url, { method: 'PUT', headers, body: randomBytes(10) });

  it("a single PUT: the completion gets the preparing request's context, whoever reports it", async () => {
    const prepared = await call('user-1', {});
    expect(prepared.status, JSON.stringify(prepared.body)).toBe(200);
    expect((await put(prepared.body.url, prepared.body.headers)).status).toBe(200);
    const { key, receipt } = prepared.body;
    // A receipt whose context names another user keeps its signature: refused.
    const [expiry, signature] = (receipt as string).split('.');
    const forged = `${expiry}.${signature}.${Buffer.from('{"userId":"user-2"}').toString('base64url')}`;
    expect(await call('user-2', { complete: { key, receipt: forged } })).toEqual({
      status: 400,
      body: { error: 'The upload receipt is not valid for this key.', code: 'INVALID_REQUEST' },
    });
    expect(await call('user-2', { complete: { key, receipt } })).toEqual({ status: 200, body: { key, size: 10, serverData: { key, owner: 'user-1' } } });
  });

  it("a multipart upload: the completion gets the create request's context from the ticket", async () => {
    const created = await call('user-3', { multipart: { action: 'create', partSize: 5 * 1024 * 1024 } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { ticket, key } = created.body;
    const signed = await call('user-4', { multipart: { action: 'sign-parts', ticket, partNumbers: [1] } });
    const [{ url, headers }] = signed.body.parts;
    const sent = await put(url, headers);
    expect(sent.status).toBe(200);
    const done = await call('user-4', { multipart: { action: 'complete', ticket, parts: [{ partNumber: 1, etag: sent.headers.get('etag') }] } });
    expect(done).toMatchObject({ status: 200, body: { key, serverData: { key, owner: 'user-3' } } });
  });
});
