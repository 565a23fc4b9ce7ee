import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { createTestBucket, type RadosgwBucket } from '@upbeam/ceph-rgw';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  completeNotifiedUploads,
  createUploadHandler,
  reconcileUploads,
  type NotifiedUploads,
  type UploadCompleteContext,
  type UploadHandlerConfig,
  type UploadRoutes,
} from '../src/index';
import { notifyObjectCreated } from './radosgw-notifications';

// radosgw's bucket notifications, posted by radosgw itself to an HTTP endpoint on 127.0.0.1 (a topic with a
// `push-endpoint`, CreateTopic through its SNS-compatible API): the endpoint hands each notification to
// `completeNotifiedUploads`, which completes the upload through the report's own marker. radosgw only: s3rver
// has no notifications.

const radosgw = inject('radosgw');
const SECRET = randomBytes(12).toString('hex');

describe.runIf(radosgw)('completeNotifiedUploads with radosgw bucket notifications', () => {
  let storage: RadosgwBucket;
  let admin: S3Client;
  let receiver: Server;
  let deleteTopic: (() => Promise<void>) | undefined;
  const calls: UploadCompleteContext[] = [];
  const notified: NotifiedUploads[] = [];
  const refusedRequests: string[] = [];
  let config: UploadHandlerConfig & { routes: UploadRoutes };

  beforeAll(async () => {
    storage = await createTestBucket(radosgw!, 'notified');
    admin = storage.createClient();
    const routes: UploadRoutes = {
      photos: {
        keyPrefix: 'photos/',
        allowedContentTypes: ['image/*'],
        maxFileSize: 5000,
        onUploadComplete: (context) => {
          calls.push(context);
          return { photo: calls.length };
        },
      },
    };
    config = { ...storage.handlerSettings, routes, onError: () => {} };
    // The app's receiving route: checks the secret in its URL, then completes what the notification names.
    receiver = createServer(async (request, response) => {
      let text = '';
      for await (const chunk of request) text += chunk;
      if (new URL(request.url!, 'http://127.0.0.1').searchParams.get('secret') !== SECRET) {
        refusedRequests.push(request.url!);
        return void response.writeHead(403).end();
      }
      notified.push(await completeNotifiedUploads(config, JSON.parse(text)));
      response.writeHead(200).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const pushEndpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/storage-events?secret=${SECRET}`;
    deleteTopic = await notifyObjectCreated(radosgw!, admin, storage.bucket, pushEndpoint);
  }, 60_000);
  afterAll(async () => {
    await deleteTopic?.();
    admin?.destroy();
    receiver?.close();
  });

  const call = async (body: object) => {
    const response = await createUploadHandler(config)(
      new Request('http://127.0.0.1/api/s3-upload', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    );
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  const outcomes = () => notified.flatMap((result) => result.objects.map(({ key, route, outcome, code }) => ({ key, route, outcome, code })));

  it('a presigned upload no page reported: its hook runs once from the notification; the late report gets that answer', async () => {
    const prepared = await call({ route: 'photos', filename: 'a b.png', filetype: 'image/png', filesize: 1000, _upload: { strategy: 'presigned' } });
    const put = await fetch(prepared.body.url, { method: 'PUT', headers: prepared.body.headers, body: randomBytes(1000) });
    expect(put.status).toBe(200);
    const { key, receipt } = prepared.body;

    await expect.poll(outcomes, { timeout: 15_000, interval: 200 }).toContainEqual({ key, route: 'photos', outcome: 'completed', code: undefined });
    expect(calls.map((context) => [context.key, context.source, context.request])).toEqual([[key, 'reconcile', undefined]]);

    const late = await call({ route: 'photos', filename: 'a b.png', filetype: 'image/png', _upload: { strategy: 'presigned', complete: { key, receipt } } });
    expect(late).toEqual({ status: 200, body: { key, size: 1000, serverData: { photo: 1 } } });
    const reconciled = await reconcileUploads(config, { olderThanSeconds: 0, dryRun: false });
    expect(reconciled.objects).toEqual([]);
    expect(calls).toHaveLength(1);
  });

  it('an object that breaks the route rules is refused and deleted, as on a report', async () => {
    const Key = 'photos/too-large.png';
    await admin.send(new PutObjectCommand({ Bucket: storage.bucket, Key, Body: randomBytes(6000), ContentType: 'image/png' }));
    await expect.poll(outcomes, { timeout: 15_000, interval: 200 }).toContainEqual({ key: Key, route: 'photos', outcome: 'refused', code: 'FILE_TOO_LARGE' });
    await expect(admin.send(new HeadObjectCommand({ Bucket: storage.bucket, Key }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });
    expect(calls).toHaveLength(1);
    expect(refusedRequests).toEqual([]);
  });
});
