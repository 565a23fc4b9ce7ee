import { createHash, randomBytes } from 'node:crypto';
import { HeadObjectCommand, ListMultipartUploadsCommand, type S3Client } from '@aws-sdk/client-s3';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUploadHandler, type UploadHandler } from '../src/index';
import { composite, multipartUpload, post, reference } from './checksum-helpers';

// Issue 46, content-addressed routes end to end on local-s3 (which verifies SHA-256 and honours If-None-Match):
// the key is named from the bytes' SHA-256, a second upload of the same bytes sends none, and an upload whose
// bytes are not the ones its key names never stays stored.

const MiB = 1024 * 1024;
let storage: LocalS3;
let admin: S3Client;
beforeAll(async () => {
  storage = await startLocalS3();
  admin = storage.createClient();
});
afterAll(async () => {
  admin?.destroy();
  await storage?.close();
});

const hexOf = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A content-addressed route with a hook that reports whether it was told `deduplicated`. */
function handlerWith(hook = vi.fn(({ deduplicated }: { deduplicated?: true }) => ({ deduplicated: deduplicated ?? false }))): { handler: UploadHandler; hook: typeof hook } {
  const handler = createUploadHandler({
    ...storage.handlerSettings,
    conditionalWrites: true,
    keyPrefix: 'files/',
    onError: () => {},
    routes: { files: { contentAddressed: true, onUploadComplete: hook } },
  });
  return { handler, hook };
}

const stored = (Key: string) =>
  admin.send(new HeadObjectCommand({ Bucket: storage.bucket, Key, ChecksumMode: 'ENABLED' })).then(
    (head) => head,
    () => undefined,
  );

describe('content-addressed routes (local-s3)', () => {
  it('a single PUT: the key is sha256/{hex}.ext; the second preparation answers alreadyStored and sends no byte', async () => {
    const { handler, hook } = handlerWith();
    const bytes = randomBytes(3000);
    const body = { route: 'files', filename: 'Photo.JPG', filetype: 'image/jpeg', filesize: bytes.length };
    const checksum = { algorithm: 'sha256', value: await reference('sha256', bytes) };
    const first = await post(handler, { ...body, _upload: { strategy: 'presigned', checksum } });
    expect(first.body).toMatchObject({ key: `files/sha256/${hexOf(bytes)}.jpg`, checksum: 'sha256', ifNoneMatch: true });
    expect((await fetch(first.body.url, { method: 'PUT', headers: first.body.headers, body: bytes })).status).toBe(200);
    const report = (answer: Record<string, any>) => post(handler, { ...body, _upload: { strategy: 'presigned', complete: { key: answer.key, receipt: answer.receipt } } });
    expect((await report(first.body)).body).toMatchObject({ serverData: { deduplicated: false } });

    const fetches = vi.spyOn(globalThis, 'fetch');
    const second = await post(handler, { ...body, filename: 'copy.jpg', _upload: { strategy: 'presigned', checksum } });
    fetches.mockRestore();
    expect(second.body).toEqual({
      key: first.body.key,
      bucket: storage.bucket,
      region: expect.any(String),
      endpoint: storage.endpoint,
      checksum: 'sha256',
      ifNoneMatch: true,
      alreadyStored: true,
      receipt: expect.any(String),
    });
    // The preparation asked storage (HEAD) and nothing else: no upload record, no PUT.
    expect(fetches.mock.calls.filter(([, init]) => (init as RequestInit | undefined)?.method === 'PUT')).toEqual([]);
    const deduplicated = await report(second.body);
    expect(deduplicated.body).toMatchObject({ deduplicated: true, serverData: { deduplicated: true }, checksum: { algorithm: 'sha256', value: checksum.value } });
    expect(hook).toHaveBeenCalledTimes(2);
    expect(hook).toHaveBeenLastCalledWith(expect.objectContaining({ deduplicated: true, checksum: { algorithm: 'sha256', type: 'full-object', value: checksum.value } }));
  });

  it('a multipart upload: the key is sha256/{hex}-{parts}; a second create answers alreadyStored', async () => {
    const { handler } = handlerWith();
    const parts = [randomBytes(5 * MiB), randomBytes(700)];
    const value = await composite('sha256', parts);
    const first = await multipartUpload(handler, parts, { algorithm: 'sha256', value, filename: 'clip.mp4', route: 'files' });
    const hex = Buffer.from(value.split('-')[0]!, 'base64').toString('hex');
    expect(first.created.body.key).toBe(`files/sha256/${hex}-2.mp4`);
    expect(first.completed).toMatchObject({ status: 200, body: { checksum: { algorithm: 'sha256', type: 'composite', value } } });
    const second = await multipartUpload(handler, parts, { algorithm: 'sha256', value, filename: 'clip.mp4', route: 'files' });
    expect(second.created.body).toMatchObject({ key: first.created.body.key, alreadyStored: true, receipt: expect.any(String) });
    expect(second.created.body).not.toHaveProperty('uploadId');
  });

  it('two uploads of the same bytes at once: the later complete gets 412 and is answered as stored (deduplicated), its upload aborted', async () => {
    const { handler, hook } = handlerWith();
    const parts = [randomBytes(5 * MiB), randomBytes(300)];
    const value = await composite('sha256', parts);
    const options = { algorithm: 'sha256' as const, value, filename: 'x.bin', route: 'files', pauseBeforeComplete: true };
    const [one, two] = await Promise.all([multipartUpload(handler, parts, options), multipartUpload(handler, parts, options)]);
    const finish = async (upload: typeof one) => upload.complete!();
    const first = await finish(one);
    const later = await finish(two);
    expect(first).toMatchObject({ status: 200 });
    expect(later).toMatchObject({ status: 200, body: { key: first.body.key, checksum: { value } } });
    expect(hook.mock.calls.map(([context]) => context.deduplicated ?? false)).toEqual([false, true]);
    const uploads = await admin.send(new ListMultipartUploadsCommand({ Bucket: storage.bucket, Prefix: first.body.key }));
    expect(uploads.Uploads ?? []).toEqual([]);
  });

  it('parts that are not the bytes the key names: refused at complete (409 CHECKSUM_MISMATCH) and not left stored', async () => {
    const { handler } = handlerWith();
    const claimed = [randomBytes(5 * MiB), randomBytes(100)];
    const sent = [randomBytes(5 * MiB), randomBytes(100)];
    // The attacker names the key from one file's checksum, then signs and sends another file's parts.
    const upload = await multipartUpload(handler, sent, { algorithm: 'sha256', value: await composite('sha256', claimed), filename: 'x.bin', route: 'files' });
    expect(upload.statuses).toEqual([200, 200]);
    expect(upload.completed).toMatchObject({ status: 409, body: { code: 'CHECKSUM_MISMATCH' } });
    expect(await stored(upload.created.body.key)).toBeUndefined();
  });

  it('a preparation without the SHA-256, or with a composite value for a single PUT, is refused before anything is signed', async () => {
    const { handler } = handlerWith();
    const body = { route: 'files', filename: 'a.png', filetype: 'image/png', filesize: 10 };
    expect(await post(handler, { ...body, _upload: { strategy: 'presigned' } })).toMatchObject({ status: 400, body: { code: 'CHECKSUM_REQUIRED', checksum: 'sha256' } });
    const composed = { algorithm: 'sha256', value: `${await reference('sha256', randomBytes(1))}-2` };
    expect(await post(handler, { ...body, _upload: { strategy: 'presigned', checksum: composed } })).toMatchObject({ status: 400, body: { code: 'INVALID_CHECKSUM' } });
    expect(await post(handler, { ...body, _upload: { strategy: 'temporary-token' } })).toMatchObject({ status: 400 });
  });
});
