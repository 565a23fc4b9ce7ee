import { randomBytes } from 'node:crypto';
import { HeadObjectCommand, type S3Client as Client } from '@aws-sdk/client-s3';
import { createTestBucket, createUploadRole, tokenHandlerSettings } from '@upbeam/ceph-rgw';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createUploadHandler, defineRoutes, type UploadHandler } from '../src/index';
import { putWithToken } from './put-with-token';

// One endpoint, two routes with different rules, against real storage on 127.0.0.1 (s3rver and Ceph
// radosgw): each route's type and size are enforced by storage on the presigned strategy (signed
// Content-Type and Content-Length) and by the completion check on the temporary-token strategy; an unknown
// route is 404; the GET of rules is the configuration's public part; a route refuses another's receipt.

const connection = inject('radosgw');

interface Storage extends Pick<LocalS3, 'handlerSettings' | 'createClient' | 'close'> {
  /** Settings of the temporary-token strategy on this storage. */
  token: object;
}

const storages: { name: string; start(): Promise<Storage> }[] = [
  {
    name: 's3rver',
    start: async () => {
      const local = await startLocalS3();
      return Object.assign(local, { token: { stsClient: local.stsClient } });
    },
  },
  ...(connection
    ? [
        {
          name: 'radosgw',
          start: async () => {
            const bucket = await createTestBucket(connection, 'routes');
            const roleArn = await createUploadRole(connection);
            return { ...bucket, token: tokenHandlerSettings(connection, bucket.bucket, roleArn) };
          },
        },
      ]
    : []),
];

const routes = defineRoutes({
  avatar: { allowedContentTypes: ['image/*'], maxFileSize: 1000, maxFiles: 1, keyPrefix: 'avatars/' },
  documents: {
    allowedContentTypes: ['application/pdf'],
    maxFileSize: 5000,
    maxFiles: 20,
    strategies: ['presigned'],
    onUploadComplete: ({ key, size }) => ({ documentKey: key, kib: Math.ceil(size / 1024) }),
  },
});

describe.each(storages)('two routes on $name', ({ start }) => {
  let storage: Storage;
  let handler: UploadHandler;
  let admin: Client;

  beforeAll(async () => {
    storage = await start();
    handler = createUploadHandler({ ...storage.handlerSettings, ...storage.token, routes, onError: () => {} });
    admin = storage.createClient();
  }, 60_000);
  afterAll(async () => {
    admin?.destroy();
    await storage?.close();
  });

  const call = async (body: object) => {
    const response = await handler(
      new Request('http://127.0.0.1/api/s3-upload', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    );
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  const prepare = (route: string, filetype: string, filesize: number, strategy = 'presigned') =>
    call({ route, filename: 'f', filetype, filesize, _upload: { strategy } });
  const putPresigned = (answer: Record<string, any>, size: number, headers: Record<string, string> = {}) =>
    fetch(answer.url, { method: 'PUT', headers: { ...answer.headers, ...headers }, body: randomBytes(size) });
  const exists = (Bucket: string, Key: string) =>
    admin.send(new HeadObjectCommand({ Bucket, Key })).then(
      () => true,
      () => false,
    );

  it("refuses another route's receipt on real storage: the documents hook runs only for its own route's report", async () => {
    const documents = await prepare('documents', 'application/pdf', 3000);
    expect((await putPresigned(documents.body, 3000)).status).toBe(200);
    const report = (route: string) =>
      call({ route, filename: 'f', filetype: 'application/pdf', _upload: { strategy: 'presigned', complete: { key: documents.body.key, receipt: documents.body.receipt } } });
    expect(await report('avatar')).toEqual({ status: 400, body: { error: 'The upload receipt is not valid for this key.', code: 'INVALID_REQUEST' } });
    expect(await report('documents')).toMatchObject({ status: 200, body: { serverData: { documentKey: documents.body.key, kib: 3 } } });
  });

  it("answers a GET with each route's public rules only", async () => {
    const response = await handler(new Request('http://127.0.0.1/api/s3-upload'));
    expect(await response.json()).toEqual({
      routes: {
        avatar: { allowedContentTypes: ['image/*'], maxFileSize: 1000, maxFiles: 1, strategies: ['presigned', 'temporary-token', 'presigned-post'] },
        documents: { allowedContentTypes: ['application/pdf'], maxFileSize: 5000, maxFiles: 20, strategies: ['presigned'] },
      },
    });
  });

  it('presigned: storage holds each route to its own size and type', async () => {
    const avatar = await prepare('avatar', 'image/png', 1000);
    expect(avatar.status).toBe(200);
    expect(avatar.body.key).toMatch(/^avatars\//);
    expect((await putPresigned(avatar.body, 1001)).status).toBeGreaterThanOrEqual(400);
    expect((await putPresigned(avatar.body, 1000, { 'Content-Type': 'text/html' })).status).toBe(403);
    expect((await putPresigned(avatar.body, 1000)).status).toBe(200);

    const documents = await prepare('documents', 'application/pdf', 5000);
    expect((await putPresigned(documents.body, 5000)).status).toBe(200);
    // The route's hook ran with its receipt: its serverData is the route's.
    const done = await call({ route: 'documents', filename: 'f', filetype: 'application/pdf', _upload: { strategy: 'presigned', complete: { key: documents.body.key, receipt: documents.body.receipt } } });
    expect(done).toEqual({ status: 200, body: { key: documents.body.key, size: 5000, serverData: { documentKey: documents.body.key, kib: 5 } } });
    // The same receipt, named for the other route: refused.
    const crossed = await call({ route: 'avatar', filename: 'f', filetype: 'application/pdf', _upload: { strategy: 'presigned', complete: { key: documents.body.key, receipt: documents.body.receipt } } });
    expect(crossed.status).toBe(400);

    expect((await prepare('avatar', 'application/pdf', 10)).status).toBe(400);
    expect((await prepare('avatar', 'image/png', 1001)).status).toBe(413);
    expect((await prepare('documents', 'image/png', 10)).status).toBe(400);
    expect((await prepare('documents', 'application/pdf', 5001)).status).toBe(413);
  });

  it('temporary-token: the completion check holds the route to its size and type (deleted, 413 / 415)', async () => {
    const send = async (filetype: string, declared: number, stored: { size: number; type: string }) => {
      const prepared = await prepare('avatar', filetype, declared, 'temporary-token');
      expect(prepared.status).toBe(200);
      await putWithToken(prepared.body as Parameters<typeof putWithToken>[0], stored.size, stored.type);
      const { key, receipt, bucket } = prepared.body;
      const done = await call({ route: 'avatar', filename: 'f', filetype, _upload: { strategy: 'temporary-token', complete: { key, receipt } } });
      return { ...done, kept: await exists(bucket, key) };
    };
    expect(await send('image/png', 100, { size: 100, type: 'image/png' })).toMatchObject({ status: 200, kept: true });
    expect(await send('image/png', 100, { size: 1001, type: 'image/png' })).toMatchObject({ status: 413, kept: false });
    expect(await send('image/png', 100, { size: 100, type: 'text/html' })).toMatchObject({ status: 415, kept: false });
    // documents allows the presigned strategy only.
    expect((await prepare('documents', 'application/pdf', 10, 'temporary-token')).status).toBe(400);
  }, 60_000);

  it('answers 404 UNKNOWN_ROUTE to an unknown route', async () => {
    expect(await prepare('videos', 'video/mp4', 10)).toEqual({ status: 404, body: { error: 'Unknown upload route "videos".', code: 'UNKNOWN_ROUTE' } });
  });
});
