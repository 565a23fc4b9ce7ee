/**
 * A presigned POST (S3 POST Object with a SigV4 policy document): the form fields a browser sends, unchanged and
 * in order, before the file. The policy binds every field the form carries (storage refuses a form with a field
 * the policy does not name, or a value it does not allow), the size range of the file (`content-length-range`)
 * and its expiry. Signed with the settings' credentials and the same hashes as `sigv4-query.ts` (`node:crypto`
 * built in, else the SDK's portable SHA-256): no AWS SDK client, so the worker build signs it too.
 */
import { CHECKSUM_HEADERS, OBJECT_CACHE_CONTROL, type ChecksumAlgorithm } from '@upbeam/upload-protocol';
import { UploadError } from './errors';
import { sseHeaders, type UrlSigner } from './presign';
import { loadSigningHashes } from './sdk';
import type { ResolvedStorageSettings } from './settings';

/** Lifetime of a presigned POST policy, in seconds (SPEC 7.3's lifetime of a presigned URL). */
export const PRESIGNED_POST_EXPIRES_IN = 3600;

/** What one presigned POST stores. */
export interface PostPolicyInput {
  key: string;
  contentType: string;
  /** Smallest and largest file storage accepts, in bytes (`content-length-range`, both ends included). */
  minSize: number;
  maxSize: number;
  contentDisposition?: string | undefined;
  /** User metadata, stored as `x-amz-meta-*` (each an exact field of the policy). */
  metadata?: Record<string, string> | undefined;
  /** Object tags, URL-encoded (`a=1&b=2`, as `objectTagging` gives them): sent as the `tagging` field's XML. `''` or unset: none. */
  tagging?: string | undefined;
  /** The object's checksum (base64 of its digest), as its `x-amz-checksum-*` field; `md5` has no POST field (checked at completion). */
  checksum?: { algorithm: ChecksumAlgorithm; value: string } | undefined;
  /** Lifetime of the policy, in seconds. */
  expiresIn: number;
  /** Signing time; now when unset (tests pin it). */
  signingDate?: Date | undefined;
}

/** A presigned POST: where to send the form, its fields (in order, the file after them) and when the policy ends. */
export interface PresignedPost {
  url: string;
  fields: Record<string, string>;
  /** ISO 8601, the policy's `expiration`. */
  expiresAt: string;
}

/** Signs POST policies of one bucket; built once per handler, reused for every request. */
export type PostSigner = (input: PostPolicyInput) => Promise<PresignedPost>;

/** Credentials a POST policy is signed with; `sessionToken` adds the `x-amz-security-token` field. */
export interface PostCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string | undefined;
}

/** One condition of a policy document: `{ field: value }` or `["eq", "$field", value]` / `["content-length-range", min, max]`. */
type PolicyCondition = Record<string, string> | [string, string | number, string | number];

/** A key that is never stored: its presigned PUT URL tells where the bucket's objects live (`url` minus the key). */
const PROBE_KEY = 'upbeam-post-probe';

/** `&`, `<`, `>`, quotes escaped for XML text. */
function xmlText(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The `tagging` field of a POST: S3 takes the tag set as XML there (not the URL-encoded form of the PUT header). */
export function taggingXml(tagging: string): string {
  const tags = [...new URLSearchParams(tagging)].map(([key, value]) => `<Tag><Key>${xmlText(key)}</Key><Value>${xmlText(value)}</Value></Tag>`);
  return `<Tagging><TagSet>${tags.join('')}</TagSet></Tagging>`;
}

/** Base64 of the UTF-8 bytes of `text` (a key or metadata may hold any character). */
function base64Utf8(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  return btoa(binary);
}

/** `YYYYMMDDTHHMMSSZ` of `date`. */
function amzDate(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');
}

/**
 * The bucket's POST URL: where a presigned PUT of a probe key goes, without the key (`{endpoint}/{bucket}` path
 * style, `https://{bucket}.{host}/` virtual-hosted), found once through the handler's URL signer.
 */
async function bucketUrl(sign: UrlSigner): Promise<string> {
  const url = new URL(await sign({ key: PROBE_KEY, query: {}, headers: {}, signed: new Set(), expiresIn: 60 }));
  const path = url.pathname.slice(0, -PROBE_KEY.length);
  // Path style: `/{bucket}` (a trailing slash would name an empty key on some storage); virtual-hosted: `/`.
  return `${url.protocol}//${url.host}${path.length > 1 ? path.slice(0, -1) : path}`;
}

/**
 * Signs a POST policy and lays out the fields. The conditions, in the fields' order: `bucket`, `key` eq,
 * `Content-Type` eq, `content-length-range`, `Cache-Control` eq ({@link OBJECT_CACHE_CONTROL}),
 * `Content-Disposition` eq (when set), each `x-amz-meta-*` eq, `tagging` eq (when there are tags), `acl` eq (with
 * `objectAcl`), the SSE-C fields (with a customer key), the checksum field (when given, but `md5`),
 * `success_action_status` 201, `x-amz-algorithm`, `x-amz-credential`, `x-amz-date` and `x-amz-security-token`
 * (with session credentials). Then `policy` and `x-amz-signature` (not conditions: S3 leaves them out).
 */
export function createPolicySigner(settings: Pick<ResolvedStorageSettings, 'bucket' | 'region' | 'objectAcl' | 'sseCustomerKey'>, credentials: PostCredentials, url: () => Promise<string>): PostSigner {
  let signingKey: { day: string; key: Promise<Uint8Array> } | undefined;
  const keyOf = (day: string, hmac: (key: string | Uint8Array, text: string) => Uint8Array | Promise<Uint8Array>) => {
    if (signingKey?.day !== day) {
      const derive = async () => {
        let key: string | Uint8Array = `AWS4${credentials.secretAccessKey}`;
        for (const part of [day, settings.region, 's3', 'aws4_request']) key = await hmac(key, part);
        return key as Uint8Array;
      };
      signingKey = { day, key: derive() };
      signingKey.key.catch(() => (signingKey = undefined));
    }
    return signingKey.key;
  };
  const sse = sseHeaders(settings.sseCustomerKey);
  return async (input) => {
    const [hashes, postUrl, sseFields] = await Promise.all([loadSigningHashes(), url(), sse]);
    const date = input.signingDate ?? new Date();
    const longDate = amzDate(date);
    const day = longDate.slice(0, 8);
    const fields: Record<string, string> = {};
    const conditions: PolicyCondition[] = [{ bucket: settings.bucket }];
    const exact = (name: string, value: string) => {
      fields[name] = value;
      conditions.push(['eq', `$${name}`, value]);
    };
    exact('key', input.key);
    exact('Content-Type', input.contentType);
    conditions.push(['content-length-range', input.minSize, input.maxSize]);
    exact('Cache-Control', OBJECT_CACHE_CONTROL);
    if (input.contentDisposition !== undefined) exact('Content-Disposition', input.contentDisposition);
    for (const [name, value] of Object.entries(input.metadata ?? {})) exact(`x-amz-meta-${name.toLowerCase()}`, value);
    if (input.tagging) exact('tagging', taggingXml(input.tagging));
    if (settings.objectAcl !== undefined) exact('acl', settings.objectAcl);
    for (const [name, value] of Object.entries(sseFields)) exact(name, value);
    if (input.checksum !== undefined && input.checksum.algorithm !== 'md5') exact(CHECKSUM_HEADERS[input.checksum.algorithm], input.checksum.value);
    const plain = (name: string, value: string) => {
      fields[name] = value;
      conditions.push({ [name]: value });
    };
    plain('success_action_status', '201');
    plain('x-amz-algorithm', 'AWS4-HMAC-SHA256');
    plain('x-amz-credential', `${credentials.accessKeyId}/${day}/${settings.region}/s3/aws4_request`);
    plain('x-amz-date', longDate);
    if (credentials.sessionToken !== undefined) plain('x-amz-security-token', credentials.sessionToken);
    const expiration = new Date(Math.floor(date.getTime() / 1000) * 1000 + input.expiresIn * 1000).toISOString();
    const policy = base64Utf8(JSON.stringify({ expiration, conditions }));
    fields.policy = policy;
    fields['x-amz-signature'] = await hashes.hmacHex(await keyOf(day, hashes.hmac), policy);
    return { url: postUrl, fields, expiresAt: expiration };
  };
}

/**
 * The POST signer of one handler's storage: its credentials, and the bucket's address from its URL signer
 * (resolved once; a failure is forgotten and tried again next time). `sign` undefined (an access-point ARN
 * bucket, whose address only the SDK's command path resolves): every POST is refused.
 * @throws (from the returned function) {@link UploadError} `NOT_SUPPORTED` (501) for an access-point ARN bucket.
 */
export function createPostSigner(settings: ResolvedStorageSettings, sign: UrlSigner | undefined): PostSigner {
  if (!sign) {
    return () => Promise.reject(new UploadError('NOT_SUPPORTED', 'A presigned POST cannot be sent to an access-point ARN bucket: use the presigned or temporary-token strategy.'));
  }
  let resolving: Promise<string> | undefined;
  const url = () =>
    (resolving ??= bucketUrl(sign).catch((error: unknown) => {
      resolving = undefined;
      throw error;
    }));
  return createPolicySigner(settings, settings, url);
}

