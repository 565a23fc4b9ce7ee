import { randomBytes } from 'node:crypto';
import { GetObjectTaggingCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { createTestBucket } from '@upbeam/ceph-rgw';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createUploadHandler, defineRoutes, type UploadHandler } from '../src/index';

// Tags on the presigned strategy: the route's (and allowed request) tags are signed into the PUT as the
// `x-amz-tagging` header, an empty one when there are none. Before, radosgw stored a tag `a=b` a browser
// added to a presigned PUT (the header was unsigned); now the PUT is refused (403). Ceph radosgw stores
// the signed tags; s3rver ignores the header (no tags stored) but checks the signature all the same.

const connection = inject('radosgw');
type Storage = Pick<LocalS3, 'handlerSettings' | 'createClient' | 'close'>;
const storages: { name: string; start(): Promise<Storage>; storesTags: boolean }[] = [
  { name: 's3rver', start: () => startLocalS3(), storesTags: false },
  ...(connection ? [{ name: 'radosgw', start: () => createTestBucket(connection, 'tagging'), storesTags: true }] : []),
];

const routes = defineRoutes({
  tagged: { tags: { kind: 'avatar' }, allowObjectTagging: true },
  plain: {},
});

describe.each(storages)('presigned PUT with signed tags on $name', ({ start, storesTags }) => {
  let storage: Storage;
  let handler: UploadHandler;
  let admin: S3Client;

  beforeAll(async () => {
    storage = await start();
    handler = createUploadHandler({ ...storage.handlerSettings, routes, onError: () => {} });
    admin = storage.createClient();
  });
  afterAll(async () => {
    admin?.destroy();
    await storage?.close();
  });

  const prepare = async (route: string, extra: object = {}) => {
    const response = await handler(
      new Request('http://127.0.0.1/api/s3-upload', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ route, filename: 'a.png', filetype: 'image/png', filesize: 10, _upload: { strategy: 'presigned' }, ...extra }),
      }),
    );
    return { status: response.status, body: (await response.json()) as { key: string; url: string; headers: Record<string, string> } };
  };
  const put = (prepared: { url: string; headers: Record<string, string> }, headers: Record<string, string> = {}) =>
    fetch(prepared.url, { method: 'PUT', headers: { ...prepared.headers, ...headers }, body: randomBytes(10) });
  const tagsOf = async (Key: string) => {
    const { TagSet } = await admin.send(new GetObjectTaggingCommand({ Bucket: storage.handlerSettings.bucket, Key }));
    return Object.fromEntries((TagSet ?? []).map(({ Key: name, Value }) => [name, Value]));
  };
  const stored = (Key: string) =>
    admin.send(new HeadObjectCommand({ Bucket: storage.handlerSettings.bucket, Key })).then(
      () => true,
      () => false,
    );

  it('refuses a PUT whose browser adds tags where none were signed (403), and stores none', async () => {
    const { body } = await prepare('plain');
    expect(body.headers['x-amz-tagging']).toBe('');
    expect((await put(body, { 'x-amz-tagging': 'a=b' })).status).toBe(403);
    expect(await stored(body.key)).toBe(false);
    expect((await put(body)).status).toBe(200);
    if (storesTags) expect(await tagsOf(body.key)).toEqual({});
  });

  it('stores the signed tags (route and request) and refuses a PUT that changes them (403)', async () => {
    const { status, body } = await prepare('tagged', { tags: [{ Key: 'user', Value: '42' }] });
    expect(status).toBe(200);
    expect(body.headers['x-amz-tagging']).toBe('user=42&kind=avatar');
    expect((await put(body, { 'x-amz-tagging': 'user=1&kind=avatar' })).status).toBe(403);
    expect((await put(body)).status).toBe(200);
    if (storesTags) expect(await tagsOf(body.key)).toEqual({ user: '42', kind: 'avatar' });
  });

  it('refuses request tags on a route that does not allow them (403 FORBIDDEN)', async () => {
    expect((await prepare('plain', { tags: [{ Key: 'a', Value: 'b' }] })).status).toBe(403);
  });

  // A multipart upload is created by the server (CreateMultipartUpload with `Tagging`): the browser's part
  // PUTs carry no tagging header, and the completed object has the same tags a single PUT would.
  const multipart = async (route: string, multipartRequest: object, extra: object = {}) => {
    const { status, body } = await prepare(route, { _upload: { strategy: 'presigned', multipart: multipartRequest }, ...extra });
    return { status, body: body as unknown as Record<string, any> };
  };
  it('stores the route and request tags on a multipart upload (CreateMultipartUpload), and refuses unallowed ones (403)', async () => {
    const created = await multipart('tagged', { action: 'create', partSize: 5 * 1024 * 1024 }, { tags: [{ Key: 'user', Value: '42' }] });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { ticket } = created.body;
    const signed = await multipart('tagged', { action: 'sign-parts', ticket, partNumbers: [1] });
    const [{ url, headers }] = signed.body.parts;
    const sent = await fetch(url, { method: 'PUT', headers, body: randomBytes(10) });
    expect(sent.status).toBe(200);
    const done = await multipart('tagged', { action: 'complete', ticket, parts: [{ partNumber: 1, etag: sent.headers.get('etag') }] });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(await stored(created.body.key)).toBe(true);
    if (storesTags) expect(await tagsOf(created.body.key)).toEqual({ user: '42', kind: 'avatar' });
    expect((await multipart('plain', { action: 'create', partSize: 5 * 1024 * 1024 }, { tags: [{ Key: 'a', Value: 'b' }] })).status).toBe(403);
  });
});
