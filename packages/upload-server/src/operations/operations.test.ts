import type { PresignedUploadResponse, UploadRequestBody } from '@upbeam/upload-protocol';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouteServices } from '../route-services';
import { complete } from './complete';
import { runMultipart } from './multipart';
import { preparePresigned } from './prepare-presigned';
import { renew } from './renew';
import { decideObject, type RouteContext } from './route-context';

// Each operation called as a function, without HTTP. Storage sits at a closed port of 127.0.0.1: what is
// tested here is decided before any storage request (presigning is local; forged receipts and tickets are
// refused first). The storage side runs in the integration suites (s3rver, radosgw); but a preparation with
// `onUploadComplete` writes the upload's record, so those below (`storedRoute`) store on a real local-s3.

const settings = {
  accessKeyId: 'AKID',
  secretAccessKey: 'SECRET',
  bucket: 'my-bucket',
  region: 'eu-west-1',
  endpoint: 'http://127.0.0.1:9',
  forcePathStyle: true,
  // No storage at that port: the check of unsigned headers runs in the integration suites.
  checkUnsignedHeaders: false,
};
/** The request the operations give user code (`RequestSource`). */
const request = { request: new Request('http://127.0.0.1/api/s3-upload', { method: 'POST' }) };
const body = (extra: Partial<UploadRequestBody> = {}): UploadRequestBody => ({
  filename: 'cat.png',
  filetype: 'image/png',
  filesize: 100,
  _upload: { strategy: 'presigned' },
  ...extra,
});

function route(config: RouteContext['config'] = {}, name?: string): RouteContext {
  const merged = { ...settings, ...config };
  return { config: merged, services: createRouteServices(merged, name) };
}

let storage: LocalS3;
beforeAll(async () => {
  storage = await startLocalS3({ bucket: settings.bucket });
});
afterAll(() => storage?.close());

/** A route that stores on local-s3 (its preparations with a hook write the upload's record there). */
function storedRoute(config: RouteContext['config'] = {}, name?: string): RouteContext {
  return route({ ...storage.handlerSettings, region: settings.region, ...config }, name);
}

describe('operations without HTTP', () => {
  it('decideObject: the hook decides the key and metadata; the policy refuses what breaks it', async () => {
    const context = route({ keyPrefix: 'u/', allowedContentTypes: ['image/*'], onBeforeUpload: () => ({ key: 'u/1.png', metadata: { a: 'b' } }) });
    expect(await decideObject(context, body(), request)).toEqual({ key: 'u/1.png', contentDisposition: undefined, metadata: { a: 'b' }, filesize: 100 });
    await expect(decideObject(context, body({ filetype: 'text/plain' }), request)).rejects.toMatchObject({ code: 'FILE_TYPE_NOT_ALLOWED' });
  });

  it('preparePresigned: a URL that signs the type, size, ACL and an empty tagging header, and a receipt with a hook', async () => {
    const context = storedRoute({ maxFileSize: 1000, onUploadComplete: () => ({ ok: true }) });
    const object = await decideObject(context, body(), request);
    const answer = (await preparePresigned(context, object, body())) as PresignedUploadResponse;
    expect(answer).toMatchObject({ key: object.key, bucket: 'my-bucket', region: 'eu-west-1', endpoint: storage.endpoint, receipt: expect.any(String) });
    expect(new URL(answer.url).searchParams.get('X-Amz-SignedHeaders')).toBe('cache-control;content-length;content-type;host;x-amz-acl;x-amz-tagging');
    expect(answer.headers).toEqual({ 'Content-Type': 'image/png', 'Cache-Control': 'max-age=630720000', 'x-amz-acl': 'private', 'x-amz-tagging': '' });
  });

  it("decideObject: onBeforeUpload's return is the context, carried only to an onUploadComplete; at most 1 KiB", async () => {
    const onBeforeUpload = () => ({ userId: 'u1', metadata: { a: 'b' } });
    const withHook = storedRoute({ onBeforeUpload, onUploadComplete: () => ({}) });
    const object = await decideObject(withHook, body(), request);
    expect(object.context).toBe('{"userId":"u1"}');
    expect(object.metadata).toEqual({ a: 'b' });
    const { key, receipt } = await preparePresigned(withHook, object, body());
    await expect(withHook.services.receipts().verify(key, receipt!)).resolves.toBe(object.context);
    expect((await decideObject(route({ onBeforeUpload }), body(), request)).context).toBeUndefined();
    expect((await decideObject(route({ onBeforeUpload: () => {}, onUploadComplete: () => ({}) }), body(), request)).context).toBeUndefined();
    const large = route({ onBeforeUpload: () => ({ notes: 'x'.repeat(1100) }), onUploadComplete: () => ({}) });
    await expect(decideObject(large, body(), request)).rejects.toThrow(RangeError);
  });

  it("complete: refuses another route's receipt before any storage request", async () => {
    const avatar = storedRoute({ onUploadComplete: () => ({}) }, 'avatar');
    const documents = route({ onUploadComplete: () => ({}) }, 'documents');
    const { key, receipt } = await preparePresigned(avatar, await decideObject(avatar, body(), request), body());
    await expect(complete(documents, { key, receipt: receipt! }, request)).rejects.toMatchObject({ code: 'INVALID_REQUEST', status: 400 });
  });

  it('decideObject: a key the app lets the browser choose can never name the handler\'s own records or markers (.upbeam/)', async () => {
    const chooser = route({ keyPrefix: '', key: (asked) => String(asked.wanted), onUploadComplete: () => ({}) });
    for (const wanted of ['.upbeam/uploads/AAAA/1.4102444800.forged', '.upbeam/completions/x.json', '.upbeam/anything']) {
      await expect(decideObject(chooser, body({ wanted }), request)).rejects.toMatchObject({ code: 'INVALID_OBJECT_KEY' }); // the app's key: a 500, logged
    }
    expect((await decideObject(chooser, body({ wanted: 'mine/a.png' }), request)).key).toBe('mine/a.png');
  });

  it('renew and the multipart operations refuse a forged ticket (403) before any storage request', async () => {
    const context = route();
    await expect(renew(context, { ticket: 'e30.forged' }, body({ _upload: { strategy: 'temporary-token' } }), request)).rejects.toMatchObject({ code: 'INVALID_TICKET' });
    await expect(runMultipart(context, { action: 'abort', ticket: 'e30.forged' }, body(), request)).rejects.toMatchObject({ code: 'INVALID_TICKET' });
  });
});
