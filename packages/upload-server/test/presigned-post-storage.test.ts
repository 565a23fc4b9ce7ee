import { createHash, randomBytes } from 'node:crypto';
import { CreateBucketCommand, GetObjectAclCommand, GetObjectCommand, GetObjectTaggingCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { createTestBucket } from '@upbeam/ceph-rgw';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { diagnoseUploadConfig } from '../src/doctor/index';
import { createUploadHandler, reconcileUploads, type UploadHandlerConfig } from '../src/index';

// The presigned-post strategy against real storage on 127.0.0.1 (local-s3, Ceph radosgw 16.2): a POST of the
// answer's form (fields in order, then `file`, as `postForm` of @upbeam/upload-client builds it) stores the
// object with the policy's type, Cache-Control, metadata and tags; the receipt runs the completion hook once.
// The attacks on the policy (changed fields, sizes, expiry): post-policy-attacks.test.ts.

type Storage = Pick<LocalS3, 'bucket' | 'handlerSettings' | 'createClient' | 'close'>;

const radosgw = inject('radosgw');
const storages: { name: string; start(): Promise<Storage> }[] = [
  { name: 'local-s3', start: () => startLocalS3() },
  ...(radosgw ? [{ name: 'radosgw', start: () => createTestBucket(radosgw, 'post') }] : []),
];

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** CRC-32C (Castagnoli), bitwise: a test's few hundred bytes. */
function crc32c(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** What `postForm` sends: every field in its order, then the file, named `file`. */
function postForm(fields: Record<string, string>, file: Blob): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', file);
  return form;
}

interface PostAnswer {
  key: string;
  bucket: string;
  url: string;
  fields: Record<string, string>;
  expiresAt: string;
  receipt?: string;
}

function request(body: unknown): Request {
  return new Request('http://127.0.0.1/api/s3-upload', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/**
 * What each storage keeps of the form, measured: both store the tags (GetObjectTagging), but only radosgw 16.2
 * counts them on a GET (`x-amz-tagging-count`); radosgw stores no `Cache-Control` field (the policy binds it; the
 * object has none) and ignores an `x-amz-checksum-*` field; local-s3 (s3rver) keeps and verifies both.
 */
const KEEPS: Record<string, { cacheControl: boolean; tagCount: boolean; verifiesChecksumField: boolean }> = {
  'local-s3': { cacheControl: true, tagCount: false, verifiesChecksumField: true },
  radosgw: { cacheControl: false, tagCount: true, verifiesChecksumField: false },
};

describe.each(storages)('presigned POST against $name', ({ name, start }) => {
  let storage: Storage;
  let reader: S3Client;

  beforeAll(async () => {
    storage = await start();
    reader = storage.createClient();
  });
  afterAll(async () => {
    reader?.destroy();
    await storage?.close();
  });

  async function prepare(handler: (request: Request) => Promise<Response>, file: { name: string; type: string; size: number }, extra: object = {}) {
    const response = await handler(request({ filename: file.name, filetype: file.type, filesize: file.size, _upload: { strategy: 'presigned-post' }, ...extra }));
    expect(response.status).toBe(200);
    return (await response.json()) as PostAnswer;
  }

  it('stores the form: bytes, Content-Type, Cache-Control, metadata and tags as the policy says; 201', async () => {
    const bytes = randomBytes(256 * 1024 + 3);
    const config: UploadHandlerConfig = {
      ...storage.handlerSettings,
      tags: { origin: 'upbeam' },
      onBeforeUpload: () => ({ metadata: { 'user-id': '42' } }),
    };
    const handler = createUploadHandler(config);
    const answer = await prepare(handler, { name: 'report final.pdf', type: 'application/pdf', size: bytes.length });
    expect(answer.fields.key).toBe(answer.key);
    const response = await fetch(answer.url, { method: 'POST', body: postForm(answer.fields, new Blob([bytes])) });
    expect(response.status).toBe(201);
    const object = await reader.send(new GetObjectCommand({ Bucket: answer.bucket, Key: answer.key }));
    expect(sha256(await object.Body!.transformToByteArray())).toBe(sha256(bytes));
    expect(object.ContentType).toBe('application/pdf');
    expect(object.CacheControl).toBe(KEEPS[name]!.cacheControl ? 'max-age=630720000' : undefined);
    expect(object.Metadata).toEqual({ 'user-id': '42' });
    expect(object.TagCount).toBe(KEEPS[name]!.tagCount ? 1 : undefined);
    const { TagSet } = await reader.send(new GetObjectTaggingCommand({ Bucket: answer.bucket, Key: answer.key }));
    expect(TagSet).toEqual([{ Key: 'origin', Value: 'upbeam' }]);
  });

  it('runs the completion hook once with the receipt; a second report is answered from the marker', async () => {
    const completed: string[] = [];
    const handler = createUploadHandler({
      ...storage.handlerSettings,
      onUploadComplete: ({ key }) => {
        completed.push(key);
      },
    });
    const bytes = randomBytes(1000);
    const answer = await prepare(handler, { name: 'a.txt', type: 'text/plain', size: bytes.length });
    expect(typeof answer.receipt).toBe('string');
    const response = await fetch(answer.url, { method: 'POST', body: postForm(answer.fields, new Blob([bytes])) });
    expect(response.status).toBe(201);
    const report = { filename: 'a.txt', filetype: 'text/plain', _upload: { strategy: 'presigned-post', complete: { key: answer.key, receipt: answer.receipt } } };
    const first = await handler(request(report));
    expect(first.status).toBe(200);
    const second = await handler(request(report));
    expect(second.status).toBe(200);
    expect(completed).toEqual([answer.key]);
  });

  it('storage refuses a file over the range (maxFileSize) and stores nothing', async () => {
    const handler = createUploadHandler({ ...storage.handlerSettings, maxFileSize: 1000 });
    const answer = await prepare(handler, { name: 'a.bin', type: 'application/octet-stream', size: 1000 });
    const response = await fetch(answer.url, { method: 'POST', body: postForm(answer.fields, new Blob([randomBytes(1001)])) });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('EntityTooLarge');
    const head = await reader.send(new HeadObjectCommand({ Bucket: answer.bucket, Key: answer.key })).then(
      () => 200,
      (error: { $metadata?: { httpStatusCode?: number } }) => error.$metadata?.httpStatusCode,
    );
    expect(head).toBe(404);
  });

  it('a CRC-32C checksum: bound as its field and in the receipt; other bytes refused by storage (400) or at completion (409) where storage verifies it', async () => {
    const handler = createUploadHandler({ ...storage.handlerSettings, checksum: 'crc32c', onError: () => {} });
    const digest = (bytes: Uint8Array) => Buffer.from(crc32c(bytes).toString(16).padStart(8, '0'), 'hex').toString('base64');
    const send = async (declared: Uint8Array, sent: Uint8Array<ArrayBuffer>) => {
      const answer = await prepare(handler, { name: 'c.bin', type: 'application/octet-stream', size: declared.length }, {
        _upload: { strategy: 'presigned-post', checksum: { algorithm: 'crc32c', value: digest(declared) } },
      });
      expect(answer).toMatchObject({ checksum: 'crc32c' });
      expect(answer.fields['x-amz-checksum-crc32c']).toBe(digest(declared));
      const posted = await fetch(answer.url, { method: 'POST', body: postForm(answer.fields, new Blob([sent])) });
      const report = await handler(request({ filename: 'c.bin', filetype: 'application/octet-stream', _upload: { strategy: 'presigned-post', complete: { key: answer.key, receipt: answer.receipt } } }));
      return { posted: posted.status, report: report.status };
    };
    const bytes = randomBytes(300);
    expect(await send(bytes, bytes)).toEqual({ posted: 201, report: 200 });
    const refused = await send(bytes, randomBytes(300));
    // radosgw 16.2 ignores x-amz-checksum-* (as on a PUT: Checksums guide): nothing binds the bytes there.
    if (KEEPS[name]!.verifiesChecksumField) expect(refused.posted === 400 || refused.report === 409).toBe(true);
    else expect(refused).toEqual({ posted: 201, report: 200 });
  });

  it('an MD5 checksum binds nothing on a POST (no Content-MD5 field): the answer names no checksum', async () => {
    const handler = createUploadHandler({ ...storage.handlerSettings, checksum: 'md5', onError: () => {} });
    const bytes = randomBytes(10);
    const answer = await prepare(handler, { name: 'c.bin', type: 'application/octet-stream', size: bytes.length }, {
      _upload: { strategy: 'presigned-post', checksum: { algorithm: 'md5', value: createHash('md5').update(bytes).digest('base64') } },
    });
    expect(answer).not.toHaveProperty('checksum');
    expect(Object.keys(answer.fields).filter((field) => /md5|checksum/i.test(field))).toEqual([]);
    expect((await fetch(answer.url, { method: 'POST', body: postForm(answer.fields, new Blob([bytes])) })).status).toBe(201);
  });

  it('reconcile runs the hook of a POST upload that was never reported, once (its record, as a presigned PUT)', async () => {
    const completed: string[] = [];
    const config: UploadHandlerConfig = {
      ...storage.handlerSettings,
      keyPrefix: `reconcile-post-${Math.random().toString(36).slice(2, 8)}/`,
      onUploadComplete: ({ key }) => void completed.push(key),
      onError: () => {},
    };
    const bytes = randomBytes(100);
    const answer = await prepare(createUploadHandler(config), { name: 'b.png', type: 'image/png', size: bytes.length });
    expect((await fetch(answer.url, { method: 'POST', body: postForm(answer.fields, new Blob([bytes])) })).status).toBe(201);
    const applied = await reconcileUploads(config, { olderThanSeconds: 0, dryRun: false });
    expect(applied).toMatchObject({ finished: true });
    expect(completed).toEqual([answer.key]);
    await reconcileUploads(config, { olderThanSeconds: 0, dryRun: false });
    expect(completed).toEqual([answer.key]);
  });

  it("the doctor's post-object check: ok (a POST taken, one over its range refused), nothing left behind", async () => {
    const findings = await diagnoseUploadConfig({ ...storage.handlerSettings, keyPrefix: 'doctor-post/', env: {} });
    expect(findings.find((finding) => finding.check === 'post-object')).toMatchObject({ status: 'ok' });
    const { Contents = [] } = await reader.send(new ListObjectsV2Command({ Bucket: storage.bucket, Prefix: 'doctor-post/' }));
    expect(Contents.map((object) => object.Key)).toEqual([]);
  });
});

// Issue 45 item 3, measured on radosgw 16.2 without the copy-refusing bucket policy (where the unsigned-header
// gate refuses presigned PUTs): a POST Object carries no x-amz-copy-source, and no header or field outside its
// policy: radosgw ignores the request's own x-amz-* headers and refuses (403) a form field the policy does not
// name. So the handler answers a `presigned` single upload there with a presigned POST. bench/notes/presigned-post.md.
describe.skipIf(!radosgw)('presigned POST on radosgw without the bucket policy (issue 45 item 3)', () => {
  let storage: Storage;
  let admin: S3Client;
  const canary = 'canary/secret.txt';
  const secret = 'the server can read this';
  const ALL_USERS = 'http://acs.amazonaws.com/groups/global/AllUsers';

  beforeAll(async () => {
    storage = await createTestBucket(radosgw!, 'post-open', { allowedOrigins: ['*'], refuseCopies: false });
    admin = storage.createClient();
    await admin.send(new PutObjectCommand({ Bucket: storage.bucket, Key: canary, Body: secret }));
  });
  afterAll(() => admin?.destroy());

  async function prepareOn(config: UploadHandlerConfig, strategy: string, extra: object = {}): Promise<Response> {
    return createUploadHandler({ ...storage.handlerSettings, ...config })(request({ filename: 'a.txt', filetype: 'text/plain', filesize: 5, _upload: { strategy }, ...extra }));
  }

  /** The answer's form with `added` fields before the policy (as a browser editing the form would), sent with `headers`. */
  async function send(form: PostAnswer, added: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    const fields: Record<string, string> = {};
    for (const [field, value] of Object.entries(form.fields)) {
      if (field === 'policy') Object.assign(fields, added);
      fields[field] = value;
    }
    return fetch(form.url, { method: 'POST', headers, body: postForm(fields, new Blob(['hello'])) });
  }

  it('the handler refuses a presigned PUT there (the gate) but answers a presigned single upload with a POST, which stores and completes', async () => {
    const completed: string[] = [];
    const config: UploadHandlerConfig = { onUploadComplete: ({ key }) => void completed.push(key) };
    const response = await prepareOn(config, 'presigned');
    expect(response.status).toBe(200);
    const form = (await response.json()) as PostAnswer;
    expect(Object.keys(form.fields)).toContain('policy');
    expect(form).not.toHaveProperty('headers');
    expect((await send(form, {})).status).toBe(201);
    const report = await createUploadHandler({ ...storage.handlerSettings, ...config })(
      request({ filename: 'a.txt', filetype: 'text/plain', _upload: { strategy: 'presigned', complete: { key: form.key, receipt: form.receipt } } }),
    );
    expect(report.status).toBe(200);
    expect(completed).toEqual([form.key]);
    // next-s3-upload's client sends PUTs only: it keeps the refusal (500, logged), and so does a multipart upload.
    const errors: unknown[] = [];
    const nextS3 = await createUploadHandler({ ...storage.handlerSettings, objectAcl: 'none', onError: (error) => void errors.push(error) })(
      request({ filename: 'a.txt', filetype: 'text/plain', _nextS3: { strategy: 'presigned' } }),
    );
    expect(nextS3.status, await nextS3.clone().text()).toBe(500);
    const multipart = await prepareOn({ onError: (error) => void errors.push(error) }, 'presigned', { filesize: 10 * 1024 * 1024, _upload: { strategy: 'presigned', multipart: { action: 'create', partSize: 5 * 1024 * 1024 } } });
    expect(multipart.status, await multipart.clone().text()).toBe(500);
    expect(errors).toHaveLength(2);
  });

  it('an x-amz-copy-source header is ignored (the form bytes are stored), as a field it is refused (403)', async () => {
    const copy = `${storage.bucket}/${canary}`;
    const header = (await (await prepareOn({}, 'presigned-post')).json()) as PostAnswer;
    expect((await send(header, {}, { 'x-amz-copy-source': copy, 'x-amz-metadata-directive': 'REPLACE' })).status).toBe(201);
    const stored = await admin.send(new GetObjectCommand({ Bucket: header.bucket, Key: header.key }));
    expect(await stored.Body!.transformToString()).toBe('hello');
    const field = (await (await prepareOn({}, 'presigned-post')).json()) as PostAnswer;
    const refused = await send(field, { 'x-amz-copy-source': copy });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('Policy missing condition: x-amz-copy-source');
  });

  it('x-amz-meta-*, x-amz-acl and x-amz-tagging headers are ignored; as fields outside the policy they are refused (403)', async () => {
    const form = (await (await prepareOn({}, 'presigned-post')).json()) as PostAnswer;
    expect((await send(form, {}, { 'x-amz-meta-evil': '1', 'x-amz-acl': 'public-read', 'x-amz-tagging': 'a=1' })).status).toBe(201);
    const head = await admin.send(new HeadObjectCommand({ Bucket: form.bucket, Key: form.key }));
    expect(head.Metadata).toEqual({});
    expect(head.TagCount).toBeUndefined();
    const acl = await admin.send(new GetObjectAclCommand({ Bucket: form.bucket, Key: form.key }));
    expect(acl.Grants?.some((grant) => grant.Grantee?.URI === ALL_USERS)).toBe(false);
    for (const added of [{ 'x-amz-meta-evil': '1' }, { acl: 'public-read' }, { tagging: '<Tagging><TagSet/></Tagging>' }] as Record<string, string>[]) {
      const other = (await (await prepareOn({}, 'presigned-post')).json()) as PostAnswer;
      expect((await send(other, added)).status).toBe(403);
    }
  });

  it('on a bucket with object lock, an x-amz-object-lock-legal-hold header is ignored and the field refused (403)', async () => {
    const locked = `post-lock-${Math.random().toString(36).slice(2, 8)}`;
    await admin.send(new CreateBucketCommand({ Bucket: locked, ObjectLockEnabledForBucket: true }));
    const form = (await (await prepareOn({ bucket: locked }, 'presigned-post')).json()) as PostAnswer;
    expect((await send(form, {}, { 'x-amz-object-lock-legal-hold': 'ON' })).status).toBe(201);
    const head = await admin.send(new HeadObjectCommand({ Bucket: locked, Key: form.key }));
    expect(head.ObjectLockLegalHoldStatus).toBeUndefined();
    const other = (await (await prepareOn({ bucket: locked }, 'presigned-post')).json()) as PostAnswer;
    expect((await send(other, { 'x-amz-object-lock-legal-hold': 'ON' })).status).toBe(403);
  });
});
