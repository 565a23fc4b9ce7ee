import { CreateBucketCommand, GetObjectCommand, GetObjectTaggingCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost, type PresignedPostOptions } from '@aws-sdk/s3-presigned-post';
import { createHash, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalS3, type LocalS3 } from '../src/index';

// POST Object (a browser's form upload) against local-s3, its forms signed by the AWS SDK's own POST
// signer (@aws-sdk/s3-presigned-post): an independent signer, so that the server's checks are not the
// signer's mirror. Each refusal below was seen to pass (the form stored) with its rule taken out of
// post-object.ts, and to fail again once restored (see the commit that added this file).

let storage: LocalS3;
let s3: S3Client;

beforeAll(async () => {
  storage = await startLocalS3({ bucket: 'forms' });
  s3 = storage.createClient();
});
afterAll(async () => {
  s3?.destroy();
  await storage?.close();
});

/** A client signing as `credentials` (default: the server's), its clock `offsetMs` off (a policy signed in the past). */
function signer(options: { credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string }; offsetMs?: number } = {}) {
  return new S3Client({
    region: storage.region,
    endpoint: storage.endpoint,
    forcePathStyle: true,
    credentials: options.credentials ?? { accessKeyId: storage.accessKeyId, secretAccessKey: storage.secretAccessKey },
    systemClockOffset: options.offsetMs ?? 0,
  });
}

/** The form the upload handler's policy asks for (design of issue 45): exact key and type, a size range, 201. */
async function signForm(key: string, options: Partial<PresignedPostOptions> & { client?: S3Client } = {}) {
  const client = options.client ?? signer();
  const post = await createPresignedPost(client as never, {
    Bucket: storage.bucket,
    Key: key,
    Expires: 3600,
    Conditions: [['content-length-range', 1, 1024], ['eq', '$Content-Type', 'image/png'], ...(options.Conditions ?? [])],
    Fields: { 'Content-Type': 'image/png', 'Cache-Control': 'private, max-age=60', 'x-amz-meta-owner': 'alice', success_action_status: '201', ...options.Fields },
  });
  if (!options.client) client.destroy();
  return post;
}

type Part = [string, string | Blob, string?];

/** Posts the form's parts in order (`file` as a Blob with a file name), as a browser's FormData. */
async function postForm(url: string, parts: Part[]): Promise<{ status: number; code: string; message: string; body: string; headers: Headers }> {
  const form = new FormData();
  for (const [name, value, fileName] of parts) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, value, fileName ?? 'cat.png');
  }
  const response = await fetch(url, { method: 'POST', body: form, headers: { origin: 'http://app.test' } });
  const body = await response.text();
  return {
    status: response.status,
    code: /<Code>([^<]*)<\/Code>/.exec(body)?.[1] ?? '',
    // s3rver escapes its error text twice (`&amp;quot;`): read as S3's once-escaped text.
    message: unescapeXml(unescapeXml(/<Message>([^<]*)<\/Message>/.exec(body)?.[1] ?? '')),
    body,
    headers: response.headers,
  };
}

const XML_ENTITIES: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' };
const unescapeXml = (text: string) => text.replace(/&(amp|quot|apos|lt|gt);/g, (_entity, name: string) => XML_ENTITIES[name]!);
const png = (size: number) => new Blob([Buffer.alloc(size, 7)], { type: 'image/png' });
const fieldsOf = (fields: Record<string, string>): Part[] => Object.entries(fields);
const withFile = (fields: Record<string, string>, size = 100): Part[] => [...fieldsOf(fields), ['file', png(size)]];

async function exists(key: string, bucket = storage.bucket): Promise<boolean> {
  try {
    await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    return true;
  } catch {
    return false;
  }
}

describe('an accepted form', () => {
  it('stores the file with the form\'s Content-Type, Cache-Control, x-amz-meta-* and tagging, and answers 201 with CORS headers', async () => {
    const tagging = '<Tagging><TagSet><Tag><Key>route</Key><Value>avatar</Value></Tag></TagSet></Tagging>';
    const { url, fields } = await signForm('ok/a.png', { Fields: { tagging } });
    const answer = await postForm(url, withFile(fields, 300));
    expect(answer.status, answer.body).toBe(201);
    expect(answer.body).toContain('<Key>ok/a.png</Key>');
    expect(answer.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    const head = await s3.send(new HeadObjectCommand({ Bucket: storage.bucket, Key: 'ok/a.png' }));
    expect({ type: head.ContentType, cache: head.CacheControl, meta: head.Metadata, size: head.ContentLength }).toEqual({
      type: 'image/png',
      cache: 'private, max-age=60',
      meta: { owner: 'alice' },
      size: 300,
    });
    const tags = await s3.send(new GetObjectTaggingCommand({ Bucket: storage.bucket, Key: 'ok/a.png' }));
    expect(tags.TagSet).toEqual([{ Key: 'route', Value: 'avatar' }]);
  });

  it('takes x-ignore-* fields uncovered, ignores fields after the file, and answers 204 without success_action_status', async () => {
    const { url, fields } = await signForm('ok/b.png', { Fields: { success_action_status: '204' } });
    const answer = await postForm(url, [...withFile({ ...fields, 'x-ignore-note': 'anything' }), ['x-amz-meta-after', 'ignored']]);
    expect(answer.status, answer.body).toBe(204);
    const head = await s3.send(new HeadObjectCommand({ Bucket: storage.bucket, Key: 'ok/b.png' }));
    expect(head.Metadata).toEqual({ owner: 'alice' });
  });

  it('with a session token of the STS stand-in: stored inside the session policy, refused outside it or without the token', async () => {
    const { Credentials } = await storage.stsClient.send({
      input: {
        Policy: JSON.stringify({
          Version: '2012-10-17',
          Statement: [{ Effect: 'Allow', Action: 's3:PutObject', Resource: `arn:aws:s3:::${storage.bucket}/session/*` }],
        }),
      },
    });
    const client = signer({ credentials: { accessKeyId: Credentials.AccessKeyId, secretAccessKey: Credentials.SecretAccessKey, sessionToken: Credentials.SessionToken } });
    try {
      const inside = await signForm('session/a.png', { client });
      expect((await postForm(inside.url, withFile(inside.fields))).status).toBe(201);
      const outside = await signForm('elsewhere/a.png', { client });
      expect(await postForm(outside.url, withFile(outside.fields))).toMatchObject({ status: 403, code: 'AccessDenied' });
      const { 'X-Amz-Security-Token': _token, ...noToken } = inside.fields;
      expect(await postForm(inside.url, withFile(noToken))).toMatchObject({ status: 403, code: 'InvalidAccessKeyId' });
      expect(await postForm(inside.url, withFile({ ...inside.fields, 'X-Amz-Security-Token': 'local-other' }))).toMatchObject({ status: 400, code: 'InvalidToken' });
    } finally {
      client.destroy();
    }
    expect(await exists('elsewhere/a.png')).toBe(false);
  });
});

describe('the file on its way', () => {
  it('streams a larger file whole (8 MiB within the range): the stored bytes are the file\'s', async () => {
    const bytes = randomBytes(8 * 1024 * 1024 + 5);
    const wide = await createPresignedPost(s3 as never, {
      Bucket: storage.bucket,
      Key: 'ok/large.png',
      Conditions: [['content-length-range', 1, 16 * 1024 * 1024]],
      Fields: { 'Content-Type': 'image/png' },
    });
    expect((await postForm(wide.url, [...fieldsOf(wide.fields), ['file', new Blob([bytes])]])).status).toBe(204);
    const object = await s3.send(new GetObjectCommand({ Bucket: storage.bucket, Key: 'ok/large.png' }));
    const sha = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
    expect(sha(await object.Body!.transformToByteArray())).toBe(sha(bytes));
  });

  it('a form cut off in the middle of its file stores nothing and keeps the object before', async () => {
    await s3.send(new PutObjectCommand({ Bucket: storage.bucket, Key: 'cut/a.png', Body: 'before' }));
    const { url, fields } = await signForm('cut/a.png', { Conditions: [['content-length-range', 1, 1024 * 1024]] });
    const boundary = 'upbeamcut';
    const head = Object.entries(fields)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('');
    const fileHead = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`;
    await new Promise<void>((done) => {
      const post = request(url, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': '999999' } });
      post.on('error', () => done());
      post.on('close', () => done());
      post.write(head + fileHead);
      post.write(Buffer.alloc(64 * 1024, 1), () => setTimeout(() => post.destroy(), 100));
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const kept = await s3.send(new GetObjectCommand({ Bucket: storage.bucket, Key: 'cut/a.png' }));
    expect(await kept.Body!.transformToString()).toBe('before');
  });
});

describe('a refused form stores nothing', () => {
  it('without a signature (an anonymous write): 403 AccessDenied', async () => {
    const { url } = await signForm('refused/anonymous.png');
    const answer = await postForm(url, withFile({ key: 'refused/anonymous.png', 'Content-Type': 'image/png' }));
    expect(answer).toMatchObject({ status: 403, code: 'AccessDenied' });
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(await exists('refused/anonymous.png')).toBe(false);
  });

  it('signed with another secret: 403 SignatureDoesNotMatch; with an unknown key id: 403 InvalidAccessKeyId', async () => {
    const other = signer({ credentials: { accessKeyId: storage.accessKeyId, secretAccessKey: 'not-the-secret' } });
    const forged = await signForm('refused/forged.png', { client: other });
    other.destroy();
    expect(await postForm(forged.url, withFile(forged.fields))).toMatchObject({ status: 403, code: 'SignatureDoesNotMatch' });
    const unknown = signer({ credentials: { accessKeyId: 'NOBODY', secretAccessKey: 'x' } });
    const stranger = await signForm('refused/stranger.png', { client: unknown });
    unknown.destroy();
    expect(await postForm(stranger.url, withFile(stranger.fields))).toMatchObject({ status: 403, code: 'InvalidAccessKeyId' });
    expect(await exists('refused/forged.png')).toBe(false);
  });

  it('with a policy that has expired: 403 "Invalid according to Policy: Policy expired."', async () => {
    const past = signer({ offsetMs: -2 * 3600_000 });
    const { url, fields } = await signForm('refused/expired.png', { client: past });
    past.destroy();
    expect(await postForm(url, withFile(fields))).toMatchObject({
      status: 403,
      code: 'AccessDenied',
      message: 'Invalid according to Policy: Policy expired.',
    });
    expect(await exists('refused/expired.png')).toBe(false);
  });

  it.each([
    ['key', 'refused/other.png'],
    ['Content-Type', 'text/html'],
    ['Content-Type', 'image/png, text/html'],
    ['Content-Type', 'image/png; charset=x'],
    ['x-amz-meta-owner', 'mallory'],
    ['Cache-Control', 'public, max-age=31536000'],
    ['success_action_status', '200'],
  ])('with %s changed to %j: 403 "Policy Condition failed"', async (field, value) => {
    const { url, fields } = await signForm('refused/changed.png');
    const answer = await postForm(url, withFile({ ...fields, [field]: value }));
    expect(answer).toMatchObject({ status: 403, code: 'AccessDenied' });
    expect(answer.message).toMatch(/^Invalid according to Policy: Policy Condition failed: \[/);
    expect(await exists('refused/changed.png')).toBe(false);
    expect(await exists('refused/other.png')).toBe(false);
  });

  it('sent to another bucket than its policy\'s: 403 "Policy Condition failed: [\"eq\", \"$bucket\", ...]"', async () => {
    await s3.send(new CreateBucketCommand({ Bucket: 'other-bucket' }));
    const { url, fields } = await signForm('refused/bucket.png');
    const answer = await postForm(url.replace(/\/forms\/?$/, '/other-bucket'), withFile(fields));
    expect(answer).toMatchObject({ status: 403, code: 'AccessDenied', message: 'Invalid according to Policy: Policy Condition failed: ["eq", "$bucket", "forms"]' });
    expect(await exists('refused/bucket.png', 'other-bucket')).toBe(false);
  });

  it('with a Content-Type list where the policy says starts-with: each value must start so', async () => {
    const form = async (type: string, key: string) => {
      const { url, fields } = await createPresignedPost(s3 as never, {
        Bucket: storage.bucket,
        Key: key,
        Conditions: [['starts-with', '$Content-Type', 'image/']],
      });
      return postForm(url, withFile({ ...fields, 'Content-Type': type }));
    };
    expect(await form('image/png, text/html', 'refused/list.png')).toMatchObject({ status: 403, code: 'AccessDenied' });
    expect((await form('image/png,image/gif', 'ok/list.png')).status).toBe(204);
  });

  it.each([
    ['x-amz-meta-evil', 'yes'],
    ['acl', 'public-read'],
    ['tagging', '<Tagging><TagSet><Tag><Key>a</Key><Value>b</Value></Tag></TagSet></Tagging>'],
    ['success_action_redirect', 'https://evil.test/'],
    ['x-amz-website-redirect-location', '/elsewhere'],
    ['Content-Disposition', 'attachment; filename="x.html"'],
  ])('with an added %s field: 403 "Extra input fields"', async (field, value) => {
    const { url, fields } = await signForm('refused/added.png');
    const answer = await postForm(url, withFile({ ...fields, [field]: value }));
    expect(answer).toMatchObject({ status: 403, code: 'AccessDenied', message: `Invalid according to Policy: Extra input fields: ${field.toLowerCase()}` });
    expect(await exists('refused/added.png')).toBe(false);
  });

  it('with a field given twice (a second Content-Type after the signed one): 400 InvalidArgument', async () => {
    const { url, fields } = await signForm('refused/twice.png');
    const answer = await postForm(url, [...fieldsOf(fields), ['content-type', 'text/html'], ['file', png(10)]]);
    expect(answer).toMatchObject({ status: 400, code: 'InvalidArgument' });
    expect(await exists('refused/twice.png')).toBe(false);
  });

  it('with a body past content-length-range: 400 EntityTooLarge; an empty one where the minimum is 1: 400 EntityTooSmall; the object before kept', async () => {
    await s3.send(new PutObjectCommand({ Bucket: storage.bucket, Key: 'refused/size.png', Body: 'before' }));
    const { url, fields } = await signForm('refused/size.png');
    expect(await postForm(url, withFile(fields, 1025))).toMatchObject({ status: 400, code: 'EntityTooLarge' });
    expect(await postForm(url, withFile(fields, 0))).toMatchObject({ status: 400, code: 'EntityTooSmall' });
    expect((await postForm(url, withFile(fields, 1024))).status).toBe(201);
    const large = await signForm('refused/large.png', { Conditions: [['content-length-range', 1, 8 * 1024 * 1024]] });
    // The smallest range of the policy holds (1..1024), read from a body of 8 MiB streamed in.
    expect(await postForm(large.url, withFile(large.fields, 8 * 1024 * 1024))).toMatchObject({ status: 400, code: 'EntityTooLarge' });
    expect(await exists('refused/large.png')).toBe(false);
  });

  it('with two files: 400 InvalidArgument "POST requires exactly one file upload per request."', async () => {
    await s3.send(new PutObjectCommand({ Bucket: storage.bucket, Key: 'refused/two.png', Body: 'before' }));
    const { url, fields } = await signForm('refused/two.png');
    const answer = await postForm(url, [...withFile(fields, 10), ['file', new Blob(['<script>alert(1)</script>'], { type: 'text/html' }), 'x.html']]);
    expect(answer).toMatchObject({ status: 400, code: 'InvalidArgument', message: 'POST requires exactly one file upload per request.' });
    const kept = await s3.send(new GetObjectCommand({ Bucket: storage.bucket, Key: 'refused/two.png' }));
    expect(await kept.Body!.transformToString()).toBe('before');
  });

  it('with a checksum field that does not match the file: 400 BadDigest', async () => {
    const { url, fields } = await signForm('refused/digest.png', { Fields: { 'x-amz-checksum-sha256': Buffer.alloc(32).toString('base64') } });
    expect(await postForm(url, withFile(fields))).toMatchObject({ status: 400, code: 'BadDigest' });
    expect(await exists('refused/digest.png')).toBe(false);
  });

  it('with fields before the file over 20 KiB: 400 MaxPostPreDataLengthExceededError', async () => {
    const { url, fields } = await signForm('refused/pre-data.png');
    const answer = await postForm(url, withFile({ ...fields, 'x-ignore-pad': 'x'.repeat(21 * 1024) }));
    expect(answer).toMatchObject({ status: 400, code: 'MaxPostPreDataLengthExceededError' });
  });
});
