import type { S3Client } from '@aws-sdk/client-s3';
import type { S3RequestPresigner } from '@aws-sdk/s3-request-presigner';
import { CHECKSUM_HEADERS, OBJECT_CACHE_CONTROL, type ChecksumAlgorithm } from '@upbeam/upload-protocol';
import { loadMd5, loadPresigner, loadS3 } from './sdk';
import type { ResolvedStorageSettings } from './settings';
import { createQuerySigner, escapeUriPath, type QuerySigner } from './sigv4-query';
import { ANSWER_CHECKSUM_HEADERS, SDK_CHECKSUM_FIELDS } from './upload-checksum';

/** Lifetime of a presigned PUT URL, in seconds (SPEC 7.3; the SDK's own default is 900). */
export const PRESIGNED_URL_EXPIRES_IN = 3600;

/** What one presigned PUT stores. */
export interface PresignInput {
  key: string;
  contentType: string;
  /** Lifetime of the URL, in seconds. */
  expiresIn: number;
  /** Exact size in bytes the PUT must have; signed as Content-Length when given. */
  contentLength?: number | undefined;
  contentDisposition?: string | undefined;
  /** User metadata, stored as `x-amz-meta-*` (carried in the URL's query, signed). */
  metadata?: Record<string, string> | undefined;
  /**
   * Object tags, URL-encoded (`a=1&b=2`), signed as the `x-amz-tagging` header (kept a header, sent by the
   * browser); `''` signs an empty one, so that storage refuses a PUT that adds tags. Unset: no tagging header.
   */
  tagging?: string | undefined;
  /**
   * The object's checksum (base64 of its digest), signed as its header (`CHECKSUM_HEADERS`: `x-amz-checksum-*`
   * kept a header, or `Content-MD5`): storage then refuses other bytes. Unset: none.
   */
  checksum?: { algorithm: ChecksumAlgorithm; value: string } | undefined;
  /** Signs `If-None-Match: *`: storage refuses the PUT (412) when the key already holds an object. */
  ifNoneMatch?: boolean | undefined;
  /** Signing time; now when unset (tests pin it to compare URLs). */
  signingDate?: Date | undefined;
}

/** A presigned PUT: the URL and the headers the browser must send with it, exactly. */
export interface PresignedPut {
  url: string;
  headers: Record<string, string>;
}

/** Signs `PUT {key}` URLs; built once per handler, reused for every request. */
export type Presigner = (input: PresignInput) => Promise<PresignedPut>;

function base64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

async function md5Base64(bytes: Uint8Array): Promise<string> {
  const hash = new (await loadMd5())();
  hash.update(bytes);
  return base64(await hash.digest());
}

/** The canned-ACL header (lower case, as signed). */
export const OBJECT_ACL_HEADER = 'x-amz-acl';

/**
 * Signed as headers, never hoisted into the query: see {@link UrlSignRequest.unhoistable}. A checksum hoisted
 * into the query would not be a header storage checks the body against.
 */
const UNHOISTABLE = new Set([OBJECT_ACL_HEADER, 'x-amz-tagging', ...Object.values(CHECKSUM_HEADERS).filter((name) => name.startsWith('x-amz-'))]);

/** Key of the one probe URL that tells where this bucket's objects live; nothing is ever sent to it. */
const PROBE_KEY = 'upbeam-endpoint-probe';

/** Where the bucket's objects are addressed, as the SDK's endpoint rules resolve it for this client. */
interface ObjectBase {
  protocol: string;
  hostname: string;
  port: number | undefined;
  /** Path before the key: `/` (virtual-hosted) or `/{bucket}/` (path style), endpoint path included. */
  prefix: string;
}

/** One request to presign: `PUT` (or `method`) of `key` with `query` and `headers` (lower-case names). */
export interface UrlSignRequest {
  /** @default 'PUT' */
  method?: 'PUT' | 'HEAD' | 'DELETE' | undefined;
  key: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** Headers bound into the signature beyond the presigner's own choice (Content-Type, Cache-Control, Content-Length). */
  signed: Set<string>;
  /**
   * `x-amz-*` headers to sign as headers: the presigner otherwise hoists them into the query string, where
   * they are no longer headers the browser must send, and storage applies a different one sent beside them.
   */
  unhoistable?: Set<string> | undefined;
  /** Lifetime of the URL, in seconds. */
  expiresIn: number;
  signingDate?: Date | undefined;
}

/** Presigns `PUT` URLs of the bucket's objects without a command stack: see {@link createPresigner}. */
export type UrlSigner = (request: UrlSignRequest) => Promise<string>;

/** The presigner of {@link QuerySigner}'s shape on an `S3RequestPresigner` (the SDK's), for addresses the probe found. */
function sdkQuerySigner(presigner: S3RequestPresigner, formatUrl: (request: Awaited<ReturnType<S3RequestPresigner['presign']>>) => string): QuerySigner {
  return async (request, options) => formatUrl(await presigner.presign(request, options));
}

/** The handler's S3 client, built on first use (`createStorageClient`): only the probe and the command path need it. */
export type StorageClientSource = () => Promise<S3Client>;

/** AWS regions of the commercial partition whose S3 host is `s3.{region}.amazonaws.com` (not China, GovCloud, ISO, EUSC). */
const AWS_COMMERCIAL_REGION = /^(us|eu|ap|sa|ca|me|af|il|mx)-[a-z]+-\d+$/;

/** A bucket name the SDK addresses as a virtual host: no dot, no `--` (S3 Express directory buckets). */
const VIRTUAL_HOST_BUCKET = /^[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9]$/;

/**
 * Where the bucket's objects live when the settings alone say so, as the SDK's endpoint rules would: an
 * endpoint with path-style addressing, `{endpoint}/{bucket}/{key}` (MinIO, Ceph, local servers), or AWS S3
 * in a commercial region, `https://{bucket}.s3.{region}.amazonaws.com/{key}`. Other addresses (China,
 * GovCloud, dotted buckets, virtual hosts of other endpoints) are left to those rules: the probe.
 */
function knownBase(settings: ResolvedStorageSettings): ObjectBase | undefined {
  if (settings.endpoint === undefined) {
    if (settings.forcePathStyle || !AWS_COMMERCIAL_REGION.test(settings.region) || !VIRTUAL_HOST_BUCKET.test(settings.bucket)) return undefined;
    return { protocol: 'https:', hostname: `${settings.bucket}.s3.${settings.region}.amazonaws.com`, port: undefined, prefix: '/' };
  }
  if (!settings.forcePathStyle) return undefined;
  const url = new URL(settings.endpoint);
  const path = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  return { protocol: url.protocol, hostname: url.hostname, port: url.port === '' ? undefined : Number(url.port), prefix: `${path}${settings.bucket}/` };
}

/**
 * The bucket's address and what signs every URL. An address known from the settings ({@link knownBase})
 * needs no S3 client and no SDK presigner: URLs are signed by `sigv4-query.ts` with the settings'
 * credentials, and only the SDK's SHA-256 is loaded for a presigned PUT (cold start). Any other address
 * comes from one probe URL signed the command way on the client, whose config the SDK's presigner then
 * shares.
 */
async function resolveSigning(settings: ResolvedStorageSettings, client: StorageClientSource): Promise<{ where: ObjectBase; sign: QuerySigner }> {
  const known = knownBase(settings);
  if (known) {
    const credentials = { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey };
    return { where: known, sign: createQuerySigner(credentials, settings.region) };
  }
  // Imported side by side: one after the other, they took ~20 ms more.
  const [{ getSignedUrl, S3RequestPresigner }, { formatUrl }, s3, { PutObjectCommand }] = await Promise.all([
    loadPresigner(),
    import('@aws-sdk/core/util'),
    client(),
    loadS3(),
  ]);
  const url = new URL(await getSignedUrl(s3, new PutObjectCommand({ Bucket: settings.bucket, Key: PROBE_KEY }), { expiresIn: 60 }));
  const where = {
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port === '' ? undefined : Number(url.port),
    prefix: url.pathname.slice(0, -PROBE_KEY.length),
  };
  return { where, sign: sdkQuerySigner(new S3RequestPresigner({ ...s3.config }), formatUrl) };
}

/**
 * The fast path shared by the PutObject and UploadPart presigners: the bucket's address is resolved once
 * ({@link resolveSigning}: from the settings, or one `getSignedUrl` for a probe key, where the SDK's
 * endpoint rules decide host, path style and port), and each URL is then signed by one signer built once
 * (`sigv4-query.ts`, or the SDK's `S3RequestPresigner` for a probed address), with its signing key kept.
 * Undefined for an access-point ARN bucket, whose address only the command path resolves.
 */
export function createUrlSigner(settings: ResolvedStorageSettings, client: StorageClientSource): UrlSigner | undefined {
  if (settings.bucket.startsWith('arn:')) return undefined;
  // Resolved once, then read without awaiting; a failure is forgotten and tried again next time.
  let ready: { where: ObjectBase; sign: QuerySigner } | undefined;
  let resolving: Promise<NonNullable<typeof ready>> | undefined;
  const resolve = () =>
    (resolving ??= resolveSigning(settings, client).then(
      (resolved) => (ready = resolved),
      (error: unknown) => {
        resolving = undefined;
        throw error;
      },
    ));
  return async (input) => {
    const { where, sign } = ready ?? (await resolve());
    const path = `${where.prefix}${escapeUriPath(input.key)}`;
    return sign(
      { method: input.method ?? 'PUT', protocol: where.protocol, hostname: where.hostname, port: where.port, path, query: input.query, headers: input.headers },
      {
        expiresIn: input.expiresIn,
        signableHeaders: input.signed,
        ...(input.unhoistable ? { unhoistableHeaders: input.unhoistable } : {}),
        ...(input.signingDate ? { signingDate: input.signingDate } : {}),
      },
    );
  };
}

/**
 * Builds the presigner of one handler around its long-lived `S3Client` ({@link createStorageClient}).
 *
 * Fast path ({@link createUrlSigner}): no command middleware stack per request. `getSignedUrl` built a
 * presigner and ran the whole stack for every URL; the SDK's presigner itself cost more than the rest of the
 * handler (bench/RESULTS.md, "CPU profile of the presigned preparation"). Access-point ARN buckets keep the `getSignedUrl` path. `presign.test.ts` proves both give the
 * same URL.
 *
 * `getSignedUrl` signs only `host` by default, which would let the browser store any Content-Type (an
 * HTML file served as `text/html` from your bucket); Content-Type, Cache-Control, Content-Disposition,
 * Content-Length and the canned ACL (`x-amz-acl`, `objectAcl`: as a header, not hoisted into the query)
 * are signed here, and so are the object's checksum (`x-amz-checksum-*` as a header, or `Content-MD5`) and
 * `If-None-Match: *` when asked, so storage answers 403 SignatureDoesNotMatch to a PUT that differs. An added
 * `x-amz-grant-*` header then fails too (S3 and radosgw refuse a canned ACL with grants: 400).
 * `sign`: the app's shared URL signer for these settings (`shared-services.ts`); one of its own by default.
 */
export function createPresigner(settings: ResolvedStorageSettings, client: StorageClientSource, sign = createUrlSigner(settings, client)): Presigner {
  if (!sign) {
    let command: Presigner | undefined;
    return async (input) => (command ??= createCommandPresigner(settings, await client()))(input);
  }
  const sse = sseHeaders(settings.sseCustomerKey);
  // The SSE-C headers, once known (they never change): the common case then awaits nothing but the signer.
  let extra: { headers: Record<string, string>; lowerCased: Record<string, string> } | undefined;
  const resolveExtra = async () => {
    const headers = await sse;
    return (extra ??= { headers, lowerCased: lowerCase(headers) });
  };
  return async (input) => {
    const { headers: sseExtra, lowerCased: sseSigned } = extra ?? (await resolveExtra());
    const { signed, headers } = signedHeaders(input, aclHeaders(settings.objectAcl));
    const signedValues = lowerCase(headers);
    if (input.contentLength !== undefined) signedValues['content-length'] = String(input.contentLength);
    for (const [name, value] of Object.entries(input.metadata ?? {})) signedValues[`x-amz-meta-${name.toLowerCase()}`] = value;
    const url = await sign({
      key: input.key,
      query: { 'x-id': 'PutObject' },
      headers: Object.assign(signedValues, sseSigned),
      signed,
      unhoistable: UNHOISTABLE,
      expiresIn: input.expiresIn,
      signingDate: input.signingDate,
    });
    return { url, headers: { ...headers, ...sseExtra } };
  };
}

/** Lower-cased header names, as the presigner wants them. */
export function lowerCase(headers: Record<string, string>): Record<string, string> {
  const lowered: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) lowered[name.toLowerCase()] = value;
  return lowered;
}

/** The SSE-C headers a PUT or UploadPart must carry, when a customer key is configured. */
export function sseHeaders(sse: Uint8Array | undefined): Promise<Record<string, string>> {
  const headers = sse
    ? md5Base64(sse).then((md5) => ({
        'x-amz-server-side-encryption-customer-algorithm': 'AES256',
        'x-amz-server-side-encryption-customer-key': base64(sse),
        'x-amz-server-side-encryption-customer-key-MD5': md5,
      }))
    : Promise.resolve({});
  headers.catch(() => {});
  return headers;
}

/** The header that carries the canned ACL (`objectAcl`), when there is one. */
function aclHeaders(acl: string | undefined): Record<string, string> {
  return acl === undefined ? {} : { [OBJECT_ACL_HEADER]: acl };
}

/** The headers the browser sends, and the names bound into the signature (Content-Length: signed, not sent). */
function signedHeaders(input: PresignInput, acl: Record<string, string>): { signed: Set<string>; headers: Record<string, string> } {
  const signed = new Set(['content-type', 'cache-control', ...Object.keys(acl)]);
  const headers: Record<string, string> = { 'Content-Type': input.contentType, 'Cache-Control': OBJECT_CACHE_CONTROL, ...acl };
  if (input.contentDisposition !== undefined) {
    signed.add('content-disposition');
    headers['Content-Disposition'] = input.contentDisposition;
  }
  if (input.tagging !== undefined) {
    signed.add('x-amz-tagging');
    headers['x-amz-tagging'] = input.tagging;
  }
  if (input.checksum !== undefined) {
    signed.add(CHECKSUM_HEADERS[input.checksum.algorithm]);
    headers[ANSWER_CHECKSUM_HEADERS[input.checksum.algorithm]] = input.checksum.value;
  }
  if (input.ifNoneMatch) {
    signed.add('if-none-match');
    headers['If-None-Match'] = '*';
  }
  // The browser sets Content-Length itself (a forbidden header for scripts): signed, not sent by us.
  if (input.contentLength !== undefined) signed.add('content-length');
  return { signed, headers };
}

/** The reference path: `getSignedUrl` with a `PutObjectCommand` per URL (access-point ARNs; tests). */
export function createCommandPresigner(settings: ResolvedStorageSettings, client: S3Client): Presigner {
  const sse = settings.sseCustomerKey;
  const extra = sseHeaders(sse);
  return async (input) => {
    const acl = settings.objectAcl;
    // The command signs Tagging only when it has some: an empty header is signed by the other path only.
    const { signed, headers } = signedHeaders({ ...input, tagging: input.tagging || undefined }, aclHeaders(acl));
    const [{ PutObjectCommand }, { getSignedUrl }] = await Promise.all([loadS3(), loadPresigner()]);
    const url = await getSignedUrl(
      client,
      new PutObjectCommand({
        Bucket: settings.bucket,
        Key: input.key,
        ContentType: input.contentType,
        CacheControl: OBJECT_CACHE_CONTROL,
        ContentDisposition: input.contentDisposition,
        ContentLength: input.contentLength,
        Metadata: input.metadata,
        ...(input.tagging ? { Tagging: input.tagging } : {}),
        ...(input.checksum === undefined ? {} : { [SDK_CHECKSUM_FIELDS[input.checksum.algorithm]]: input.checksum.value }),
        ...(input.ifNoneMatch ? { IfNoneMatch: '*' } : {}),
        ...(acl === undefined ? {} : { ACL: acl }),
        ...(sse ? { SSECustomerAlgorithm: 'AES256', SSECustomerKey: sse as unknown as string } : {}),
      }),
      {
        expiresIn: input.expiresIn,
        signableHeaders: signed,
        unhoistableHeaders: UNHOISTABLE,
        ...(input.signingDate ? { signingDate: input.signingDate } : {}),
      },
    );
    return { url, headers: { ...headers, ...(await extra) } };
  };
}
