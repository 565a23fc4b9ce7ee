/// <reference path="./s3rver.d.ts" />
/**
 * POST Object (a browser's form upload, `POST /{bucket}` with `multipart/form-data`) enforced as S3 enforces
 * it. s3rver 4.0.4 checked nothing: no signature, no policy, any form field stored as metadata, a second file
 * ignored. Here, as on S3:
 *
 * - The form is signed (SigV4: `x-amz-algorithm`, `x-amz-credential`, `x-amz-date`, `x-amz-signature` over
 *   the base64 `policy` with the key's secret; or SigV2: `AWSAccessKeyId`, `signature`): 403
 *   `SignatureDoesNotMatch` otherwise, `InvalidAccessKeyId` for an unknown key, `AccessDenied` for a form
 *   with no signature (the bucket is not publicly writable). Credentials of the STS stand-in need their
 *   `x-amz-security-token` and pass their session policy (session-access.ts).
 * - The policy's `expiration` is in the future (403 AccessDenied "Invalid according to Policy: Policy
 *   expired."), every condition holds (`{"field": value}` and `eq`, `starts-with` (a `Content-Type` with
 *   commas: each of its values), `bucket` against the request's bucket; 403 "... Policy Condition failed:
 *   [...]"), and every form field before the file but `x-amz-signature`, `file`, `policy` and `x-ignore-*`
 *   (SigV2: `AWSAccessKeyId`, `signature`) is named by a condition (403 "... Extra input fields: ...").
 * - The file's size is within `content-length-range` (400 `EntityTooSmall` / `EntityTooLarge`; 5 GiB at
 *   most without one), the form holds one file (400 `InvalidArgument` "POST requires exactly one file upload
 *   per request."), its fields before the file are at most 20 KiB (400 `MaxPostPreDataLengthExceededError`).
 *   Fields after the file are ignored.
 * - Refused, nothing is stored (the object under the key before stays); accepted, the object is stored whole
 *   with the form's `Content-Type`, `Cache-Control`, `Content-Disposition`, `Content-Encoding`, `Expires`,
 *   `x-amz-meta-*`, its `tagging` (S3's XML) and its `x-amz-checksum-*` or `Content-MD5` verified (400
 *   `BadDigest`). The answer is S3's: 204, or `success_action_status` 200 / 201 (`<PostResponse>`), or 303 to
 *   `success_action_redirect`, with the bucket's CORS headers and the ETag.
 *
 * local-s3's own choices, where S3's behaviour is not documented: a field given twice is refused (400
 * `InvalidArgument`), as is a `file` part without a file name over 20 KiB; `acl` is checked as a canned ACL
 * and not kept (s3rver keeps no ACLs).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createRequire } from 'node:module';
import { rm } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import type { S3rverContext, S3rverMiddleware } from '@20minutes/s3rver';
import busboy from 'busboy';
import { checksumHeader, givenChecksum, givenContentMd5 } from './checksum-algorithms';
import { secretOf } from './credentials';
import { assertObjectKey } from './key-check';
import { corsHeaders, requestTarget, type RequestTarget } from './request-target';
import { S3Error } from './s3rver-internals';
import { checkFormSession } from './session-access';
import { writeChecks, type WriteChecks } from './write-checks';

const require = createRequire(import.meta.url);

/** `lib/models/object.js`: the object s3rver's store writes (it keeps the metadata S3 keeps, `x-amz-meta-*` too). */
const S3Object = require('@20minutes/s3rver/lib/models/object.js') as new (
  bucket: string,
  key: string,
  content: Readable | Buffer,
  metadata: Record<string, string>,
) => { bucket: string; key: string; metadata: Record<string, string> };

/** `lib/models/config.js`: an object's tag set, as PutObjectTagging stores it. */
const { TaggingConfiguration } = require('@20minutes/s3rver/lib/models/config.js') as {
  TaggingConfiguration: { validate(xml: string): { type: string; toXML(space?: number): string } };
};

/** The largest object a POST stores (S3's limit of a single upload). */
const MAX_POST_OBJECT = 5 * 1024 ** 3;
/** Bytes of form fields before the file S3 reads (names and values). */
const MAX_PRE_DATA = 20 * 1024;
/** Fields no condition needs to name (S3's list), by signature version. */
const EXEMPT_V4 = new Set(['x-amz-signature', 'file', 'policy']);
const EXEMPT_V2 = new Set(['awsaccesskeyid', 'signature', 'file', 'policy']);
const CANNED_ACLS = new Set([
  'private',
  'public-read',
  'public-read-write',
  'aws-exec-read',
  'authenticated-read',
  'bucket-owner-read',
  'bucket-owner-full-control',
  'log-delivery-write',
]);

/** One condition of a policy, as S3 reads it. */
type Condition =
  | { kind: 'eq' | 'starts-with'; field: string; value: string; text: string }
  | { kind: 'range'; min: number; max: number; text: string };

interface FormObject {
  key: string;
  metadata: Record<string, string>;
  checks: WriteChecks;
  min: number;
  max: number;
  tagging?: { type: string; toXML(space?: number): string };
  status: number;
  redirect?: string;
}

const policyError = (message: string) => new S3Error('AccessDenied', `Invalid according to Policy: ${message}`);
const invalidPolicy = (message: string) => new S3Error('InvalidPolicyDocument', `Invalid Policy: ${message}`);
const missingField = (name: string) =>
  new S3Error('InvalidArgument', `Bucket POST must contain a field named '${name}'.  If it is specified, please check the order of the fields.`, {
    ArgumentName: name,
    ArgumentValue: '',
  });
const oneFile = (count: number) =>
  new S3Error('InvalidArgument', 'POST requires exactly one file upload per request.', { ArgumentName: 'file', ArgumentValue: String(count) });

/** The conditions of a decoded policy document. @throws `InvalidPolicyDocument` (400) for a malformed one. */
function readConditions(conditions: unknown): Condition[] {
  if (!Array.isArray(conditions)) throw invalidPolicy('Policy missing conditions.');
  return conditions.flatMap((condition): Condition[] => {
    if (Array.isArray(condition)) {
      const [operator, field, value] = condition as unknown[];
      const op = typeof operator === 'string' ? operator.toLowerCase() : '';
      if (op === 'content-length-range' && condition.length === 3) {
        const [min, max] = [Number(field), Number(value)];
        if (Number.isInteger(min) && Number.isInteger(max) && min >= 0 && max >= min) {
          return [{ kind: 'range', min, max, text: JSON.stringify(condition).replaceAll(',', ', ') }];
        }
      }
      if ((op === 'eq' || op === 'starts-with') && condition.length === 3 && typeof field === 'string' && field.startsWith('$') && typeof value === 'string') {
        return [{ kind: op, field: field.slice(1).toLowerCase(), value, text: `["${op}", "${field}", ${JSON.stringify(value)}]` }];
      }
      throw invalidPolicy(`Invalid Condition: ${JSON.stringify(condition)}`);
    }
    if (condition !== null && typeof condition === 'object' && Object.keys(condition).length > 0) {
      return Object.entries(condition).map(([field, value]) => {
        if (typeof value !== 'string') throw invalidPolicy(`Invalid Condition: ${JSON.stringify(condition)}`);
        return { kind: 'eq' as const, field: field.toLowerCase(), value, text: `["eq", "$${field}", ${JSON.stringify(value)}]` };
      });
    }
    throw invalidPolicy(`Invalid Condition: ${JSON.stringify(condition)}`);
  });
}

/** The policy document of the base64 `policy` field. @throws `InvalidPolicyDocument` (400). */
function readPolicy(policy: string): { expiration: number; conditions: Condition[] } {
  let document: { expiration?: unknown; conditions?: unknown };
  try {
    document = JSON.parse(Buffer.from(policy, 'base64').toString('utf8')) as typeof document;
  } catch {
    throw invalidPolicy('Invalid JSON.');
  }
  if (document === null || typeof document !== 'object') throw invalidPolicy('Invalid JSON.');
  if (document.expiration === undefined) throw invalidPolicy('Policy missing expiration.');
  const expiration = typeof document.expiration === 'string' ? Date.parse(document.expiration) : Number.NaN;
  if (Number.isNaN(expiration)) throw invalidPolicy(`Invalid 'expiration' value: '${String(document.expiration)}'`);
  return { expiration, conditions: readConditions(document.conditions) };
}

const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text, 'utf8').digest();
const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Checks the form's signature over its policy; answers the signing key id and region, and the fields no
 * condition needs to name.
 * @throws `AccessDenied` (an unsigned form), `InvalidArgument` (a signature field missing),
 *   `InvalidAccessKeyId`, `SignatureDoesNotMatch`, as S3.
 */
function checkSignature(fields: ReadonlyMap<string, string>): { accessKeyId: string; region: string; exempt: Set<string> } {
  const policy = fields.get('policy');
  if (fields.has('x-amz-algorithm') || fields.has('x-amz-credential') || fields.has('x-amz-signature')) {
    for (const name of ['x-amz-algorithm', 'x-amz-credential', 'x-amz-date', 'x-amz-signature', 'policy']) {
      if (!fields.has(name)) throw missingField(name === 'policy' ? 'Policy' : name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase()));
    }
    if (fields.get('x-amz-algorithm') !== 'AWS4-HMAC-SHA256') {
      throw new S3Error('InvalidArgument', 'Unsupported algorithm.', { ArgumentName: 'x-amz-algorithm', ArgumentValue: fields.get('x-amz-algorithm')! });
    }
    const credential = fields.get('x-amz-credential')!;
    const scope = /^([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request$/.exec(credential);
    if (!scope) throw new S3Error('InvalidArgument', 'Invalid credential.', { ArgumentName: 'x-amz-credential', ArgumentValue: credential });
    const [, accessKeyId, date, region, service] = scope as unknown as [string, string, string, string, string];
    const secret = secretOf(accessKeyId);
    if (secret === undefined) {
      throw new S3Error('InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.', { AWSAccessKeyId: accessKeyId });
    }
    const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
    if (!sameText(hmac(key, policy!).toString('hex'), fields.get('x-amz-signature')!.toLowerCase())) throw signatureMismatch(accessKeyId, policy!);
    return { accessKeyId, region, exempt: EXEMPT_V4 };
  }
  if (fields.has('awsaccesskeyid') || fields.has('signature')) {
    for (const [name, shown] of [['awsaccesskeyid', 'AWSAccessKeyId'], ['signature', 'Signature'], ['policy', 'Policy']] as const) {
      if (!fields.has(name)) throw missingField(shown);
    }
    const accessKeyId = fields.get('awsaccesskeyid')!;
    const secret = secretOf(accessKeyId);
    if (secret === undefined) {
      throw new S3Error('InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.', { AWSAccessKeyId: accessKeyId });
    }
    const expected = createHmac('sha1', secret).update(policy!, 'utf8').digest('base64');
    if (!sameText(expected, fields.get('signature')!)) throw signatureMismatch(accessKeyId, policy!);
    return { accessKeyId, region: 'us-east-1', exempt: EXEMPT_V2 };
  }
  // No signature: an anonymous write, which a bucket that is not publicly writable refuses.
  throw new S3Error('AccessDenied', 'Access Denied');
}

const signatureMismatch = (accessKeyId: string, stringToSign: string) =>
  new S3Error('SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. Check your key and signing method.', {
    AWSAccessKeyId: accessKeyId,
    StringToSign: stringToSign,
  });

/** A field's value as a condition reads it: `bucket` is the request's bucket; a missing field is empty. */
const fieldValue = (fields: ReadonlyMap<string, string>, bucket: string, name: string) => (name === 'bucket' ? bucket : (fields.get(name) ?? ''));

/**
 * Everything S3 checks of a form before its file: signature, session, policy, fields. Answers what to store.
 * @throws S3's refusal (see the module comment).
 */
function checkForm(fields: ReadonlyMap<string, string>, bucket: string, fileName: string | undefined): FormObject {
  const key = fields.get('key');
  if (key === undefined) throw missingField('key');
  if (key === '') throw new S3Error('InvalidArgument', 'User key must have a length greater than 0.', { ArgumentName: 'key', ArgumentValue: '' });
  // A key local-s3 cannot keep as a file name (key-check.ts) is refused before anything else, signed or not.
  assertObjectKey(key);
  const { accessKeyId, region, exempt } = checkSignature(fields);
  const storedKey = fileName === undefined ? key : key.replaceAll('${filename}', fileName);
  // Who signed (the session token) and what they may do (the session policy) first, then the policy.
  checkFormSession(accessKeyId, region, bucket, storedKey, fields);
  const { expiration, conditions } = readPolicy(fields.get('policy')!);
  if (expiration <= Date.now()) throw policyError('Policy expired.');
  let min = 0;
  let max = MAX_POST_OBJECT;
  const named = new Set<string>();
  for (const condition of conditions) {
    if (condition.kind === 'range') {
      min = Math.max(min, condition.min);
      max = Math.min(max, condition.max);
      continue;
    }
    named.add(condition.field);
    const value = fieldValue(fields, bucket, condition.field);
    const holds =
      condition.kind === 'eq'
        ? value === condition.value
        : // A Content-Type with commas is a list: each of its values must start so (S3's rule).
          (condition.field === 'content-type' ? value.split(',').map((type) => type.trim()) : [value]).every((v) => v.startsWith(condition.value));
    if (!holds) throw policyError(`Policy Condition failed: ${condition.text}`);
  }
  const extra = [...fields.keys()].filter((name) => !exempt.has(name) && !name.startsWith('x-ignore-') && !named.has(name));
  if (extra.length > 0) throw policyError(`Extra input fields: ${extra.join(', ')}`);

  const acl = fields.get('acl');
  if (acl !== undefined && !CANNED_ACLS.has(acl)) throw new S3Error('InvalidArgument', '', { ArgumentName: 'x-amz-acl', ArgumentValue: acl });
  const tagging = fields.get('tagging');
  const status = fields.get('success_action_status');
  const given = givenChecksum(Object.fromEntries(fields));
  return {
    key: storedKey,
    metadata: Object.fromEntries(fields),
    checks: {
      given,
      contentMd5: givenContentMd5(Object.fromEntries(fields)),
      compute: given ? [given.algorithm] : [],
      keep: given && { algorithm: given.algorithm, type: 'FULL_OBJECT' },
    },
    min,
    max,
    tagging: tagging === undefined ? undefined : TaggingConfiguration.validate(tagging),
    status: status === '200' || status === '201' ? Number(status) : 204,
    redirect: fields.get('success_action_redirect') ?? fields.get('redirect'),
  };
}

/**
 * The file's bytes on their way to the store, counted: an error past `max` (EntityTooLarge), and at its end,
 * once the whole form is read (`formRead`), below `min` (EntityTooSmall) or beside a second file.
 */
function measured(form: FormObject, formRead: Promise<number>): Transform {
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > form.max) {
        callback(new S3Error('EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size', { ProposedSize: String(size), MaxSizeAllowed: String(form.max) }));
      } else callback(null, chunk);
    },
    flush(callback) {
      formRead.then(
        (files) => {
          if (files > 1) callback(oneFile(files));
          else if (size < form.min) {
            callback(new S3Error('EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed size', { ProposedSize: String(size), MinSizeAllowed: String(form.min) }));
          } else callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
}

/** Reads the form, checks it, stores its file; resolves with the stored object's key and MD5. */
function storeForm(ctx: S3rverContext, bucket: string): Promise<{ form: FormObject; md5: string }> {
  const form = busboy({ headers: ctx.headers as Record<string, string>, preservePath: true, limits: { fieldSize: MAX_PRE_DATA + 1 } });
  const fields = new Map<string, string>();
  let preData = 0;
  let files = 0;
  let settled = false;
  let countFiles!: (files: number) => void;
  let formFailed!: (error: Error) => void;
  const formRead = new Promise<number>((resolve, reject) => {
    countFiles = resolve;
    formFailed = reject;
  });
  formRead.catch(() => {});

  return new Promise((resolve, reject) => {
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    /** A field before the file; undefined when it is refused (then the form's answer is that refusal). */
    const addField = (name: string, value: string, truncated: boolean) => {
      preData += Buffer.byteLength(name) + Buffer.byteLength(value);
      if (truncated || preData > MAX_PRE_DATA) {
        return fail(new S3Error('MaxPostPreDataLengthExceededError', 'Your POST request fields preceeding the upload file was too large.', { MaxPostPreDataLength: String(MAX_PRE_DATA) }));
      }
      const lower = name.toLowerCase();
      if (fields.has(lower)) {
        return fail(new S3Error('InvalidArgument', `local-s3 refuses a form field given twice: ${name}`, { ArgumentName: name }));
      }
      fields.set(lower, value);
    };
    const takeFile = (content: Readable | Buffer, fileName: string | undefined) => {
      files += 1;
      if (files > 1 || settled) {
        if (!Buffer.isBuffer(content)) content.resume();
        return;
      }
      let object: FormObject;
      try {
        object = checkForm(fields, bucket, fileName);
      } catch (error) {
        if (!Buffer.isBuffer(content)) content.resume();
        return fail(error as Error);
      }
      const body = measured(object, formRead);
      if (Buffer.isBuffer(content)) body.end(content);
      else {
        content.pipe(body);
        // Past the range, the rest of the file is read and dropped: the answer is the refusal, not a reset.
        body.once('error', () => {
          content.unpipe(body);
          content.resume();
        });
      }
      const stored = new S3Object(bucket, object.key, body, object.metadata);
      writeChecks
        .run(object.checks, () => ctx.store.putObject(stored))
        .then(({ md5 }) => {
          if (settled) return;
          settled = true;
          resolve({ form: object, md5 });
        }, fail);
    };
    form.on('field', (name, value, info) => {
      if (files > 0) {
        // After the file S3 reads nothing but a second file.
        if (name.toLowerCase() === 'file') files += 1;
        return;
      }
      if (name.toLowerCase() === 'file') {
        if (info.valueTruncated) {
          return fail(new S3Error('InvalidArgument', 'local-s3 reads a file part without a file name up to 20 KiB: give it a filename.', { ArgumentName: 'file' }));
        }
        return takeFile(Buffer.from(value), undefined);
      }
      addField(name, value, info.valueTruncated || info.nameTruncated);
    });
    form.on('file', (name, stream, info) => {
      if (name.toLowerCase() === 'file') return takeFile(stream, info.filename);
      if (files > 0) return stream.resume();
      // A part with a file name under another name: a field like any other, its content its value.
      const chunks: Buffer[] = [];
      let length = 0;
      stream.on('data', (chunk: Buffer) => {
        length += chunk.length;
        if (length <= MAX_PRE_DATA + 1) chunks.push(chunk);
      });
      stream.on('end', () => addField(name, Buffer.concat(chunks).toString('utf8'), length > MAX_PRE_DATA));
    });
    form.once('error', (error: Error) => {
      formFailed(error);
      fail(new S3Error('MalformedPOSTRequest', 'The body of your POST request is not well-formed multipart/form-data.'));
    });
    form.once('finish', () => {
      countFiles(files);
      if (files === 0) fail(oneFile(0));
    });
    ctx.req.pipe(form);
  });
}

/** The object's URL in the answer's `Location`. */
function objectUrl(ctx: S3rverContext, bucket: string, key: string): string {
  const path = [bucket, ...key.split('/')].map(encodeURIComponent).join('/');
  return `http://${ctx.get('host')}/${path}`;
}

async function postObject(ctx: S3rverContext, target: RequestTarget): Promise<void> {
  await corsHeaders(ctx, target);
  if (!(await ctx.store.getBucket(target.bucket))) {
    throw new S3Error('NoSuchBucket', 'The specified bucket does not exist', { BucketName: target.bucket });
  }
  const { form, md5 } = await storeForm(ctx, target.bucket);
  const tagging = ctx.store.getResourcePath(target.bucket, form.key, 'tagging.xml');
  // The new object's tags are the form's, or none (a key's tags before are not the new object's).
  if (form.tagging) await ctx.store.putSubresource(target.bucket, form.key, form.tagging);
  else await rm(tagging, { force: true });
  const etag = `"${md5}"`;
  ctx.set('ETag', etag);
  const given = form.checks.given;
  if (given && form.checks.computed?.[given.algorithm] !== undefined) ctx.set(checksumHeader(given.algorithm), form.checks.computed[given.algorithm]!);
  const location = objectUrl(ctx, target.bucket, form.key);
  if (form.redirect) {
    let redirect: URL | undefined;
    try {
      redirect = new URL(form.redirect);
    } catch {
      // S3 answers as without a redirect when it is not a URL.
    }
    if (redirect) {
      for (const [name, value] of [['bucket', target.bucket], ['key', form.key], ['etag', etag]]) redirect.searchParams.append(name!, value!);
      ctx.status = 303;
      ctx.set('Location', redirect.href);
      ctx.body = '';
      return;
    }
  }
  ctx.status = form.status;
  ctx.set('Location', location);
  if (form.status === 201) {
    ctx.body = { PostResponse: { Location: location, Bucket: target.bucket, Key: form.key, ETag: etag } };
  } else {
    ctx.body = '';
    ctx.type = '';
  }
}

/**
 * The middleware: answers a form POST to a bucket (`POST /{bucket}`, `multipart/form-data`, no
 * sub-resource) as described in the module comment; other requests go on to s3rver.
 */
export function postObjects(): S3rverMiddleware {
  return async function postObjectForm(ctx, next) {
    const target = ctx.method === 'POST' ? requestTarget(ctx.path) : undefined;
    const form = /^multipart\/form-data\s*(;|$)/i.test(ctx.get('content-type'));
    if (!target || target.key !== undefined || !form || Object.keys(ctx.query).length > 0) return next();
    return postObject(ctx, target);
  };
}
