import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ListMultipartUploadsCommand, type S3Client } from '@aws-sdk/client-s3';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUploadHandler } from '../src/index';

// A failure between storage's answer and ours: storage creates the multipart upload, and its answer cannot
// be read (on workerd the SDK's browser XML parser threw `DOMParser is not defined` there, and the upload
// was left behind with its parts billed). The handler must abort what storage created.
//
// Stub, named so: no real storage sends an unreadable CreateMultipartUpload answer on request. A proxy in
// front of local-s3 forwards every request and cuts the closing tag off that one answer, so the SDK's XML
// parser fails on a 200 whose text holds the upload id.

/** A proxy to `target` that breaks the XML of CreateMultipartUpload answers (`POST ?uploads`). */
async function startUnreadableCreateProxy(target: URL): Promise<{ endpoint: string; close(): Promise<void> }> {
  const server: Server = createServer((incoming, outgoing) => {
    const breaks = incoming.method === 'POST' && /[?&]uploads(=|&|$)/.test(incoming.url ?? '');
    const upstream = forward(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        if (!breaks) {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8').replace('</InitiateMultipartUploadResult>', '');
          const { 'content-length': _, ...headers } = answer.headers;
          outgoing.writeHead(answer.statusCode ?? 502, { ...headers, 'content-length': Buffer.byteLength(body) });
          outgoing.end(body);
        });
      },
    );
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { endpoint: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('an unreadable CreateMultipartUpload answer (stub proxy before local-s3)', () => {
  let storage: LocalS3;
  let proxy: Awaited<ReturnType<typeof startUnreadableCreateProxy>>;
  let reader: S3Client;

  beforeAll(async () => {
    storage = await startLocalS3();
    proxy = await startUnreadableCreateProxy(new URL(storage.endpoint));
    reader = storage.createClient();
  });
  afterAll(async () => {
    reader?.destroy();
    await proxy?.close();
    await storage?.close();
  });

  it('answers 500 and aborts the upload storage created', async () => {
    const errors: unknown[] = [];
    const key = 'next-s3-uploads/unread/video.mp4';
    const handler = createUploadHandler({
      ...storage.handlerSettings,
      endpoint: proxy.endpoint,
      key: () => key,
      onError: (error) => errors.push(error),
    });
    const response = await handler(
      new Request('http://127.0.0.1/api/s3-upload', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ filename: 'video.mp4', filetype: 'video/mp4', filesize: 6 * 1024 * 1024, _upload: { strategy: 'presigned', multipart: { action: 'create', partSize: 5 * 1024 * 1024 } } }),
      }),
    );
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'Internal Server Error' });
    expect(errors).toHaveLength(1);
    const { Uploads = [] } = await reader.send(new ListMultipartUploadsCommand({ Bucket: storage.bucket, Prefix: key }));
    expect(Uploads).toEqual([]);
  });
});
