import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { toNodeHandler } from '../src/adapters/node';
import { createUploadHandler, type UploadHandler } from '../src/index';
import { assertValidObjectKey } from '../src/object-key';

// Hostile requests against the handler, configured on a real S3-compatible server. None may crash the
// server or get a 5xx; every refusal says what is wrong as { error, code }; every key that is signed stays
// under the prefix and passes the key checks; nothing from storage or STS reaches the body.

let storage: LocalS3;
let handler: UploadHandler;
let server: Server;
let origin: string;
const onError = vi.fn();

beforeAll(async () => {
  storage = await startLocalS3();
  handler = createUploadHandler({
    ...storage.handlerSettings,
    stsClient: storage.stsClient,
    maxFileSize: 100 * 1024 * 1024,
    allowedContentTypes: ['image/*', 'application/pdf', 'text/plain', 'text/html', 'application/octet-stream'],
    onError,
  });
  // The same handler behind the Node adapter on a real node:http server.
  server = createServer(toNodeHandler(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await storage?.close();
});

/**
 * Sends a Request over HTTP to the Node adapter, headers as they are (a lying Content-Length included:
 * then the body is written but the request never ends, as a slow or hostile client does), and reads the
 * answer back as a Response.
 */
async function viaNode(request: Request): Promise<Response> {
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : Buffer.from(await request.arrayBuffer());
  const headers = Object.fromEntries(request.headers);
  const lying = headers['content-length'] !== undefined && Number(headers['content-length']) !== (body?.byteLength ?? 0);
  if (body && !lying) headers['content-length'] = String(body.byteLength);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${origin}/api/s3-upload`, { method: request.method, headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        outgoing.destroy();
        resolve(new Response(Buffer.concat(chunks), { status: incoming.statusCode }));
      });
    });
    outgoing.on('error', reject);
    outgoing.setTimeout(10_000, () => outgoing.destroy(new Error('no answer in 10 s')));
    if (body) outgoing.write(body);
    if (!lying) outgoing.end();
  });
}

const URL_ = 'http://127.0.0.1/api/s3-upload';
const ok = { filename: 'a.png', filetype: 'image/png', filesize: 10, _upload: { strategy: 'presigned' } };
const json = (body: unknown, headers: Record<string, string> = {}) =>
  new Request(URL_, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const raw = (body: BodyInit, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  new Request(URL_, { method: 'POST', headers, body });
const MiB5 = 5 * 1024 * 1024;
/** A presigned multipart operation, with the body fields of a 20 MiB file. */
const multipart = (operation: object, extra: object = {}) =>
  json({ ...ok, filetype: 'application/octet-stream', filesize: 20 * 1024 * 1024, ...extra, _upload: { strategy: 'presigned', multipart: operation } });

/** Requests the endpoint must refuse with a 4xx. */
const refused: [string, () => Request][] = [
  ['GET', () => new Request(URL_)],
  ['DELETE', () => new Request(URL_, { method: 'DELETE' })],
  ['no content type', () => raw(JSON.stringify(ok), {})],
  ['form content type', () => raw('filename=a', { 'content-type': 'application/x-www-form-urlencoded' })],
  ['text/plain content type (CSRF-style simple request)', () => raw(JSON.stringify(ok), { 'content-type': 'text/plain' })],
  ['empty body', () => raw('')],
  ['truncated JSON', () => raw('{"filename": "a.png", ')],
  ['JSON null', () => raw('null')],
  ['JSON number', () => raw('42')],
  ['JSON string', () => raw('"a.png"')],
  ['JSON array', () => raw('[{"filename":"a"}]')],
  ['body of 1 MiB', () => raw(JSON.stringify({ ...ok, pad: 'x'.repeat(1024 * 1024) }))],
  ['lying Content-Length over the cap', () => raw(JSON.stringify(ok), { 'content-type': 'application/json', 'content-length': '99999999' })],
  ['deeply nested JSON over the cap', () => raw('['.repeat(20000) + ']'.repeat(20000))],
  ['missing filename', () => json({ ...ok, filename: undefined })],
  ['filename a number', () => json({ ...ok, filename: 42 })],
  ['filename an object', () => json({ ...ok, filename: { toString: 'x' } })],
  ['filename an array', () => json({ ...ok, filename: ['a.png'] })],
  ['filename blank', () => json({ ...ok, filename: '   ' })],
  ['filename of 5000 characters', () => json({ ...ok, filename: 'a'.repeat(5000) })],
  ['missing filetype', () => json({ ...ok, filetype: undefined })],
  ['filetype with CRLF header injection', () => json({ ...ok, filetype: 'image/png\r\nx-amz-acl: public-read' })],
  ['filetype not a media type', () => json({ ...ok, filetype: 'png' })],
  ['filetype with a space', () => json({ ...ok, filetype: 'image /png' })],
  ['filetype of 300 characters', () => json({ ...ok, filetype: `image/${'a'.repeat(300)}` })],
  ['filetype not allowed (JavaScript)', () => json({ ...ok, filetype: 'application/javascript' })],
  ['filetype not allowed (video)', () => json({ ...ok, filetype: 'video/mp4' })],
  ['filesize negative', () => json({ ...ok, filesize: -1 })],
  ['filesize a string', () => json({ ...ok, filesize: '10' })],
  ['filesize fractional', () => json({ ...ok, filesize: 1.5 })],
  ['filesize over 5 TiB', () => json({ ...ok, filesize: 6 * 1024 ** 4 })],
  ['filesize over the limit', () => json({ ...ok, filesize: 100 * 1024 * 1024 + 1 })],
  ['filesize missing with a limit set', () => json({ ...ok, filesize: undefined })],
  ['no strategy', () => json({ ...ok, _upload: undefined })],
  ['unknown strategy', () => json({ ...ok, _upload: { strategy: 'ftp' } })],
  ['strategy as a string', () => json({ ...ok, _upload: 'presigned' })],
  ['strategy null marker', () => json({ ...ok, _upload: null })],
  ['strategy inherited via __proto__', () => raw('{"filename":"a.png","filetype":"image/png","filesize":1,"_upload":{"__proto__":{"strategy":"presigned"}}}')],
  ['filename inherited via __proto__', () => raw('{"__proto__":{"filename":"a.png"},"filetype":"image/png","filesize":1,"_upload":{"strategy":"presigned"}}')],
  ['invalid UTF-8 bytes', () => raw(new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]))],
  // The multipart and renew operations (`_upload.multipart`, `_upload.renew`).
  ['multipart with the temporary-token strategy', () => json({ ...ok, _upload: { strategy: 'temporary-token', multipart: { action: 'create', partSize: MiB5 } } })],
  ['renew with the presigned strategy', () => json({ ...ok, _upload: { strategy: 'presigned', renew: { ticket: 'x' } } })],
  ['two operations at once', () => json({ ...ok, _upload: { strategy: 'presigned', multipart: { action: 'abort', ticket: 'x' }, renew: { ticket: 'x' } } })],
  ['multipart null', () => json({ ...ok, _upload: { strategy: 'presigned', multipart: null } })],
  ['multipart a string', () => json({ ...ok, _upload: { strategy: 'presigned', multipart: 'create' } })],
  ['multipart unknown action', () => multipart({ action: 'delete-bucket' })],
  ['multipart action inherited via __proto__', () => raw(`{"filename":"a.png","filetype":"image/png","filesize":1,"_upload":{"strategy":"presigned","multipart":{"__proto__":{"action":"create","partSize":${MiB5}}}}}`)],
  ['create without partSize', () => multipart({ action: 'create' })],
  ['create with partSize a string', () => multipart({ action: 'create', partSize: '5242880' })],
  ['create with partSize under 5 MiB', () => multipart({ action: 'create', partSize: MiB5 - 1 })],
  ['create with partSize over 5 GiB', () => multipart({ action: 'create', partSize: 5 * 1024 ** 3 + 1 })],
  ['create with a fractional partSize', () => multipart({ action: 'create', partSize: MiB5 + 0.5 })],
  ['create without filesize', () => multipart({ action: 'create', partSize: MiB5 }, { filesize: undefined })],
  ['create of an empty file', () => multipart({ action: 'create', partSize: MiB5 }, { filesize: 0 })],
  ['create over maxFileSize', () => multipart({ action: 'create', partSize: MiB5 }, { filesize: 100 * 1024 * 1024 + 1 })],
  ['create of a type not allowed', () => multipart({ action: 'create', partSize: MiB5 }, { filetype: 'video/mp4' })],
  ['sign-parts without ticket', () => multipart({ action: 'sign-parts', partNumbers: [1] })],
  ['sign-parts with a ticket number', () => multipart({ action: 'sign-parts', ticket: 42, partNumbers: [1] })],
  ['sign-parts with a forged ticket', () => multipart({ action: 'sign-parts', ticket: 'eyJrZXkiOiJhIn0.AAAA', partNumbers: [1] })],
  ['sign-parts with a ticket of 10000 characters', () => multipart({ action: 'sign-parts', ticket: 'a'.repeat(10_000), partNumbers: [1] })],
  ['sign-parts without partNumbers', () => multipart({ action: 'sign-parts', ticket: 'x' })],
  ['sign-parts with no part number', () => multipart({ action: 'sign-parts', ticket: 'x', partNumbers: [] })],
  ['sign-parts with part number 0', () => multipart({ action: 'sign-parts', ticket: 'x', partNumbers: [0] })],
  ['sign-parts with part number 10001', () => multipart({ action: 'sign-parts', ticket: 'x', partNumbers: [10_001] })],
  ['sign-parts with a part number string', () => multipart({ action: 'sign-parts', ticket: 'x', partNumbers: ['1'] })],
  ['sign-parts with 101 part numbers', () => multipart({ action: 'sign-parts', ticket: 'x', partNumbers: Array.from({ length: 101 }, (_, i) => i + 1) })],
  ['list-parts with a forged ticket', () => multipart({ action: 'list-parts', ticket: 'a.b' })],
  ['complete without parts', () => multipart({ action: 'complete', ticket: 'x' })],
  ['complete with parts an object', () => multipart({ action: 'complete', ticket: 'x', parts: { 1: '"a"' } })],
  ['complete with a part without etag', () => multipart({ action: 'complete', ticket: 'x', parts: [{ partNumber: 1 }] })],
  ['complete with an etag holding a line break', () => multipart({ action: 'complete', ticket: 'x', parts: [{ partNumber: 1, etag: '"a"\r\n<Part>' }] })],
  ['complete with an etag of 300 characters', () => multipart({ action: 'complete', ticket: 'x', parts: [{ partNumber: 1, etag: 'a'.repeat(300) }] })],
  ['complete with 10001 parts', () => multipart({ action: 'complete', ticket: 'x', parts: Array.from({ length: 10_001 }, (_, i) => ({ partNumber: (i % 10_000) + 1, etag: '"a"' })) })],
  ['complete over 1 MiB', () => multipart({ action: 'complete', ticket: 'x', parts: Array.from({ length: 10_000 }, (_, i) => ({ partNumber: i + 1, etag: 'e'.repeat(120) })) })],
  ['complete with a forged ticket', () => multipart({ action: 'complete', ticket: 'eyJ9.x', parts: [{ partNumber: 1, etag: '"a"' }] })],
  ['abort with a forged ticket', () => multipart({ action: 'abort', ticket: 'eyJrZXkiOiJuZXh0LXMzLXVwbG9hZHMvYSJ9.' + 'A'.repeat(43) })],
  ['renew without ticket', () => json({ ...ok, _upload: { strategy: 'temporary-token', renew: {} } })],
  ['renew with a forged ticket', () => json({ ...ok, _upload: { strategy: 'temporary-token', renew: { ticket: 'eyJrZXkiOiJhIn0.AAAA' } } })],
  ['renew with a receipt as ticket', () => json({ ...ok, _upload: { strategy: 'temporary-token', renew: { ticket: `${Math.floor(Date.now() / 1000) + 60}.${'A'.repeat(43)}` } } })],
];

/** Requests that may succeed: whatever the name, the key must stay safe and under the prefix. */
const nastyNames = [
  '../../../../etc/passwd',
  '..',
  '.',
  '/absolute/path.png',
  'C:\\Windows\\system32\\evil.png',
  'a/../../b.png',
  'invoice\u202Egnp.exe',
  'null\u0000byte.png',
  'new\nline.png',
  '%2e%2e%2fencoded.png',
  '<script>alert(1)</script>.png',
  '"quotes\'.png',
  '   ',
  '\u0000',
  'ünïcödé 写真.png',
  '😀.png',
  `${'long-'.repeat(170)}.png`,
  'con.png',
  '.htaccess',
  '~/.ssh/id_rsa',
];

const routes: [string, (request: Request) => Promise<Response>][] = [
  ['Fetch handler', (request) => handler(request)],
  ['Node adapter over HTTP', (request) => viaNode(request)],
];

describe.each(routes)('hostile input through the %s: refused with a 4xx that says what is wrong', (_, send) => {
  it.each(refused)('%s', async (_, make) => {
    const response = await send(make());
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    const text = await response.text();
    const body = JSON.parse(text);
    expect(typeof body.error).toBe('string');
    expect(body.error.length).toBeGreaterThan(5);
    expect(typeof body.code).toBe('string');
    expect(text).not.toMatch(/arn:|<\?xml|<Error>|S3RVER|Stack|at \w+ \(/);
  });
});

describe('hostile file names: accepted, but the key stays safe and under the prefix', () => {
  it.each(nastyNames)('%j', async (filename) => {
    for (const strategy of ['presigned', 'temporary-token']) {
      const response = await handler(json({ ...ok, filename, _upload: { strategy } }));
      const body = await response.json();
      if (response.status === 400) {
        expect(body.code).toBe('INVALID_REQUEST'); // blank names
        continue;
      }
      expect(response.status).toBe(200);
      expect(body.key.startsWith('next-s3-uploads/')).toBe(true);
      expect(() => assertValidObjectKey(body.key, 'next-s3-uploads/')).not.toThrow();
      // `{prefix}{id}/{name}`: a name's own `/` segments are kept as folders (a dropped folder's relative
      // path), each sanitized, always inside the id's folder.
      const [prefix, id, ...path] = body.key.split('/');
      expect(prefix).toBe('next-s3-uploads');
      expect(id).toMatch(/^[A-Za-z0-9_-]{21}$/);
      expect(path.length).toBeGreaterThanOrEqual(1);
    }
  });
});

describe('hostile input: the server stays up', () => {
  it('logged no unexpected error for any of the above, and still answers a good request', async () => {
    expect(onError).not.toHaveBeenCalled();
    expect((await handler(json(ok))).status).toBe(200);
    expect((await viaNode(json(ok))).status).toBe(200);
    expect(refused.length + nastyNames.length).toBeGreaterThanOrEqual(40);
  });

  it('does not pollute Object.prototype through extra fields', async () => {
    await handler(raw('{"filename":"a.png","filetype":"image/png","filesize":1,"_upload":{"strategy":"presigned"},"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'));
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
