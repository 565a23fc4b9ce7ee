import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUploadHandler, type UploadHandler } from './handler';
import { defineRoutes } from './routes';

/**
 * Storage at a closed port of 127.0.0.1: presigning needs none (nor the check of unsigned headers, which the
 * integration suites run). The handler of the routes below, whose hooks make each preparation write the
 * upload's record, stores on a real local-s3 instead.
 */
const settings = {
  accessKeyId: 'AKID',
  secretAccessKey: 'SECRET',
  bucket: 'my-bucket',
  region: 'eu-west-1',
  endpoint: 'http://127.0.0.1:9',
  forcePathStyle: true,
  checkUnsignedHeaders: false,
  onError: () => {},
};

const routes = defineRoutes({
  avatar: {
    allowedContentTypes: ['image/*'],
    maxFileSize: 4 * 1024 * 1024,
    maxFiles: 1,
    keyPrefix: 'avatars/',
    strategies: ['presigned'],
    onBeforeUpload: () => ({ metadata: { secret: 'never-on-the-wire' } }),
    onUploadComplete: ({ key }) => ({ avatarKey: key }),
  },
  documents: { allowedContentTypes: ['application/pdf'], maxFiles: 20, onUploadComplete: () => ({ pages: 1 }) },
});

function post(body: unknown): Request {
  return new Request('http://127.0.0.1/api/s3-upload', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const png = { filename: 'me.png', filetype: 'image/png', filesize: 1000, _upload: { strategy: 'presigned' } };
const pdf = { filename: 'a.pdf', filetype: 'application/pdf', filesize: 1000, _upload: { strategy: 'presigned' } };

describe('createUploadHandler({ routes })', () => {
  let storage: LocalS3;
  let handler: UploadHandler;
  beforeAll(async () => {
    storage = await startLocalS3({ bucket: 'my-bucket' });
    handler = createUploadHandler({ ...settings, ...storage.handlerSettings, region: settings.region, routes });
  });
  afterAll(() => storage?.close());

  it("answers a GET with each route's public rules, and nothing else of the configuration", async () => {
    const response = await handler(new Request('http://127.0.0.1/api/s3-upload'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      routes: {
        avatar: { allowedContentTypes: ['image/*'], maxFileSize: 4194304, maxFiles: 1, strategies: ['presigned'] },
        documents: { allowedContentTypes: ['application/pdf'], maxFiles: 20, strategies: ['presigned', 'temporary-token', 'presigned-post'] },
      },
    });
  });

  it('answers a HEAD as its GET, and another method 405 with Allow: GET, HEAD, POST', async () => {
    const head = await handler(new Request('http://127.0.0.1/api/s3-upload', { method: 'HEAD' }));
    expect(head.status).toBe(200);
    const put = await handler(new Request('http://127.0.0.1/api/s3-upload', { method: 'PUT' }));
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST');
    expect((await put.json()).code).toBe('METHOD_NOT_ALLOWED');
  });

  it("prepares each route with its own rules and key prefix", async () => {
    const avatar = await handler(post({ ...png, route: 'avatar' }));
    expect(avatar.status).toBe(200);
    expect((await avatar.json()).key).toMatch(/^avatars\//);
    const documents = await handler(post({ ...pdf, route: 'documents' }));
    expect((await documents.json()).key).toMatch(/^next-s3-uploads\//);
    expect((await handler(post({ ...png, route: 'documents' }))).status).toBe(400);
    expect((await handler(post({ ...pdf, route: 'avatar' }))).status).toBe(400);
    expect((await handler(post({ ...png, filesize: 5 * 1024 * 1024, route: 'avatar' }))).status).toBe(413);
  });

  it('answers 404 UNKNOWN_ROUTE naming only the route asked for, or that none was named', async () => {
    const unknown = await handler(post({ ...png, route: 'avatr' }));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'Unknown upload route "avatr".', code: 'UNKNOWN_ROUTE' });
    const none = await handler(post(png));
    expect(none.status).toBe(404);
    expect((await none.json()).code).toBe('UNKNOWN_ROUTE');
    const inherited = await handler(post({ ...png, route: 'constructor' }));
    expect(inherited.status).toBe(404);
  });

  it('refuses a strategy the route does not allow', async () => {
    const response = await handler(post({ ...png, route: 'avatar', _upload: { strategy: 'temporary-token' } }));
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe('The upload route "avatar" does not allow the temporary-token strategy.');
  });

  it("refuses another route's receipt (400), as another handler's", async () => {
    const prepared = await (await handler(post({ ...pdf, route: 'documents' }))).json();
    const complete = { ...pdf, _upload: { strategy: 'presigned', complete: { key: prepared.key, receipt: prepared.receipt } } };
    const elsewhere = await handler(post({ ...complete, route: 'avatar' }));
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.json()).toEqual({ error: 'The upload receipt is not valid for this key.', code: 'INVALID_REQUEST' });
    const own = await handler(post({ ...complete, route: 'documents' }));
    // Its own route accepts it and goes on to storage (nothing was stored at the key: the HEAD answers 404, 400).
    expect(own.status).toBe(400);
  });

  it('a handler without routes ignores a `route` field (an extra field of the app) and keeps its 405 to GET', async () => {
    const plain = createUploadHandler(settings);
    expect((await plain(post({ ...png, route: 'anything' }))).status).toBe(200);
    expect((await plain(new Request('http://127.0.0.1/api/s3-upload'))).status).toBe(405);
  });

  it('keeps a route out of the GET of rules: always (listed: false), or for the requests its function refuses; it still prepares', async () => {
    const admin = (request: Request) => request.headers.get('x-role') === 'admin';
    const hidden = createUploadHandler({
      ...settings,
      routes: {
        avatar: { allowedContentTypes: ['image/*'] },
        internal: { listed: false, allowedContentTypes: ['application/pdf'] },
        admin: { listed: admin, maxFileSize: 10 },
        broken: { listed: () => { throw new Error('no session store'); } },
      },
    });
    const rulesFor = async (headers: Record<string, string> = {}) =>
      Object.keys(((await (await hidden(new Request('http://127.0.0.1/api/s3-upload', { headers }))).json()) as { routes: object }).routes);
    expect(await rulesFor()).toEqual(['avatar']);
    expect(await rulesFor({ 'x-role': 'admin' })).toEqual(['avatar', 'admin']);
    // Listing is not authorization: a request naming the route is prepared (onBeforeUpload decides who may).
    const prepared = await hidden(post({ filename: 'a.pdf', filetype: 'application/pdf', filesize: 10, _upload: { strategy: 'temporary-token' }, route: 'internal' }));
    expect(prepared.status).not.toBe(404);
  });

  it('refuses route names that are not 1-64 of [A-Za-z0-9_-] when created', () => {
    expect(() => createUploadHandler({ ...settings, routes: { 'a b': {} } })).toThrow(/Route name "a b"/);
    expect(() => createUploadHandler({ ...settings, routes: {} })).toThrow(/at least one route/);
  });
});
