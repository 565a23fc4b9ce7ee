import { randomBytes } from 'node:crypto';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import type { CompleteMultipartResponse, MultipartUploadResponse, PresignedUploadResponse, SignPartsResponse, TemporaryTokenUploadResponse, UploadRequestBody } from '@upbeam/upload-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { complete } from '../src/operations/complete';
import { runMultipart } from '../src/operations/multipart';
import { preparePresigned } from '../src/operations/prepare-presigned';
import { prepareToken } from '../src/operations/prepare-token';
import { renew } from '../src/operations/renew';
import { decideObject, type RouteContext } from '../src/operations/route-context';
import { createRouteServices } from '../src/route-services';
import { putWithToken } from './put-with-token';

// Each operation called as a function (no Request routing, no JSON body parsing) against a real s3rver on
// 127.0.0.1, through its success path: prepare (presigned, token), complete, renew, and the multipart
// create, sign-parts, complete and abort. The unit file beside the operations covers what they refuse
// before any storage request; the handler suites cover them over HTTP, on s3rver and radosgw.

let storage: LocalS3;
/** The request the operations give user code (`RequestSource`). */
const request = { request: new Request('http://127.0.0.1/api/s3-upload', { method: 'POST', headers: { 'x-user-id': 'u1' } }) };
const body = (strategy: 'presigned' | 'temporary-token', extra: Partial<UploadRequestBody> = {}): UploadRequestBody => ({
  filename: 'cat.png',
  filetype: 'image/png',
  filesize: 10,
  _upload: { strategy },
  ...extra,
});

function route(config: RouteContext['config'] = {}): RouteContext {
  const merged = {
    ...storage.handlerSettings,
    stsClient: storage.stsClient,
    onBeforeUpload: ({ request: from }: { request: Request }) => ({ userId: from.headers.get('x-user-id') ?? '' }),
    onUploadComplete: ({ size, context }: { size: number; context: unknown }) => ({ size, context }),
    onError: () => {},
    ...config,
  } as RouteContext['config'];
  return { config: merged, services: createRouteServices(merged, 'avatar') };
}

beforeAll(async () => {
  storage = await startLocalS3();
});
afterAll(async () => {
  await storage?.close();
});

describe('operations as functions on s3rver', () => {
  it('preparePresigned, then complete: the PUT is stored and the hook gets its size and context', async () => {
    const context = route();
    const prepared = (await preparePresigned(context, await decideObject(context, body('presigned'), request), body('presigned'))) as PresignedUploadResponse;
    expect((await fetch(prepared.url, { method: 'PUT', headers: prepared.headers, body: randomBytes(10) })).status).toBe(200);
    expect(await complete(context, { key: prepared.key, receipt: prepared.receipt! }, request)).toEqual({
      key: prepared.key,
      size: 10,
      serverData: { size: 10, context: { userId: 'u1' } },
    });
  });

  it('prepareToken, renew, then complete: credentials that write the key, a renewal for the same key', async () => {
    const context = route();
    const prepared = (await prepareToken(context, await decideObject(context, body('temporary-token'), request))) as TemporaryTokenUploadResponse;
    expect(prepared).toMatchObject({ token: { Credentials: { AccessKeyId: expect.any(String) } }, ticket: expect.any(String), receipt: expect.any(String) });
    const renewed = await renew(context, { ticket: prepared.ticket! }, body('temporary-token'), request);
    expect(renewed.key).toBe(prepared.key);
    await putWithToken(renewed, 10, 'image/png');
    expect(await complete(context, { key: renewed.key, receipt: renewed.receipt! }, request)).toMatchObject({ size: 10, serverData: { context: { userId: 'u1' } } });
  });

  it('runMultipart: create, sign-parts, complete (the hook runs in it); list-parts and abort of another upload', async () => {
    const context = route();
    const multipart = (operation: Parameters<typeof runMultipart>[1]) => runMultipart(context, operation, body('presigned'), request);
    const created = (await multipart({ action: 'create', partSize: 5 * 1024 * 1024 })) as MultipartUploadResponse;
    const { parts } = (await multipart({ action: 'sign-parts', ticket: created.ticket, partNumbers: [1] })) as SignPartsResponse;
    const sent = await fetch(parts[0]!.url, { method: 'PUT', headers: parts[0]!.headers, body: randomBytes(10) });
    expect(sent.status).toBe(200);
    const done = (await multipart({ action: 'complete', ticket: created.ticket, parts: [{ partNumber: 1, etag: sent.headers.get('etag')! }] })) as CompleteMultipartResponse;
    expect(done).toMatchObject({ key: created.key, serverData: { size: 10, context: { userId: 'u1' } } });

    const other = (await multipart({ action: 'create', partSize: 5 * 1024 * 1024 })) as MultipartUploadResponse;
    expect(await multipart({ action: 'list-parts', ticket: other.ticket })).toEqual({ parts: [] });
    expect(await multipart({ action: 'abort', ticket: other.ticket })).toEqual({ aborted: true });
    await expect(multipart({ action: 'list-parts', ticket: other.ticket })).rejects.toMatchObject({ code: 'NO_SUCH_UPLOAD' });
  });
});
