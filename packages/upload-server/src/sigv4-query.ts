/**
 * AWS Signature Version 4 in the query string (a presigned URL) for S3, the steps of `S3RequestPresigner`
 * (`@aws-sdk/s3-request-presigner` over `@smithy/signature-v4`) for the requests this package presigns: the
 * same canonical request, the same hoisting of `x-amz-*` headers into the query, the same URL. It exists for
 * cost: the SDK's presigner loads ~350 KiB of CommonJS (its protocols, endpoints, client and config
 * modules) before the first URL, and for every URL builds an HMAC of the credentials for its signing-key
 * cache's name and copies the request twice. Here the hashes are the runtime's built-in `node:crypto`, or
 * the SDK's portable SHA-256 where there is none (`loadSigningHashes`), the signing key is derived once per
 * day, and the date texts (`X-Amz-Date`, the credential scope) are made once per second.
 * `presign.test.ts` proves each URL equal to `getSignedUrl`'s, for every storage address and header.
 */
import { loadSigningHashes, type SigningHashes } from './sdk';

/** The request to presign, as `S3RequestPresigner.presign` takes it (header names lower case). */
export interface QuerySignRequest {
  method: string;
  protocol: string;
  hostname: string;
  port: number | undefined;
  /** Escaped path (`/bucket/key` or `/key`); signed as is (S3 does not escape it twice). */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
}

/** What `S3RequestPresigner.presign` takes as options, those used here. */
export interface QuerySignOptions {
  /** Lifetime of the URL, in seconds (at most 7 days). */
  expiresIn: number;
  /** Headers signed even where SigV4 leaves them out by default (Content-Type, Cache-Control). */
  signableHeaders: Set<string>;
  /** `x-amz-*` headers kept headers rather than moved into the query. */
  unhoistableHeaders?: Set<string> | undefined;
  signingDate?: Date | undefined;
}

/** Signs one URL; built once per handler by {@link createQuerySigner}. */
export type QuerySigner = (request: QuerySignRequest, options: QuerySignOptions) => Promise<string>;

/** What encodeURIComponent leaves alone and RFC 3986 reserves. */
const SUB_DELIMS = /[!'()*]/g;

/** RFC 3986 escaping, as SigV4 wants it (`@smithy/core`'s `escapeUri`: encodeURIComponent leaves `!'()*` alone). */
export function escapeUri(value: string): string {
  const encoded = encodeURIComponent(value);
  SUB_DELIMS.lastIndex = 0;
  return SUB_DELIMS.test(encoded) ? encoded.replace(SUB_DELIMS, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`) : encoded;
}

/** Each path segment escaped, the slashes kept (`@smithy/core`'s `escapeUriPath`). */
export function escapeUriPath(path: string): string {
  return path.split('/').map(escapeUri).join('/');
}

/** Longest lifetime SigV4 allows a presigned URL, in seconds (7 days). */
const MAX_EXPIRES_IN = 7 * 24 * 60 * 60;

/** Headers SigV4 leaves unsigned unless asked (`@smithy/signature-v4`'s list), and Content-Type (the presigner's). */
const UNSIGNABLE = new Set([
  'authorization',
  'cache-control',
  'connection',
  'expect',
  'from',
  'keep-alive',
  'max-forwards',
  'pragma',
  'referer',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'user-agent',
  'x-amzn-trace-id',
  'content-type',
]);

/** Headers the signer makes itself and drops from the input. */
const GENERATED = new Set(['authorization', 'x-amz-date', 'date']);

/** A query parameter, escaped once: `pair` is `{escaped name}={escaped value}`. */
interface QueryParam {
  name: string;
  escapedName: string;
  pair: string;
}

/** UTF-16 code unit order, as `Array.prototype.sort` sorts strings by default. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** What {@link canonicalValue} changes: a line break or tab, two blanks in a row, a leading or trailing blank. */
const NOT_CANONICAL = /[\r\n\t]|  |^ | $/;

/** SigV4's canonical header value: line breaks to spaces, runs of blanks to one, trimmed. */
function canonicalValue(value: string): string {
  // Most values (content types, lengths, cache controls) are canonical already: one test instead of three replaces.
  if (!NOT_CANONICAL.test(value)) return value;
  return value
    .replace(/[\r\n]/g, ' ')
    .replace(/[ \t]+/g, ' ')
    .replace(/^ | $/g, '');
}

/** The texts of one signing time: `X-Amz-Date`, its day and the credential scope. */
interface SigningTime {
  /** Whole seconds since the epoch. */
  second: number;
  /** `YYYYMMDDTHHMMSSZ`. */
  longDate: string;
  /** `YYYYMMDD`. */
  day: string;
  /** `{day}/{region}/s3/aws4_request`. */
  scope: string;
  /** `{access key id}/{scope}`: the `X-Amz-Credential` value. */
  credential: string;
}

/**
 * A presigner of S3 URLs with fixed credentials and region (service `s3`). The signing key is derived once
 * per UTC day and kept; the date texts are kept for the second they name.
 */
export function createQuerySigner(credentials: { accessKeyId: string; secretAccessKey: string }, region: string): QuerySigner {
  let hashes: SigningHashes | undefined;
  let signingKey: { day: string; key: Promise<Uint8Array> } | undefined;
  const keyOf = (day: string, { hmac }: SigningHashes) => {
    if (signingKey?.day !== day) {
      const derive = async () => {
        let key: string | Uint8Array = `AWS4${credentials.secretAccessKey}`;
        for (const part of [day, region, 's3', 'aws4_request']) key = await hmac(key, part);
        return key as Uint8Array;
      };
      signingKey = { day, key: derive() };
      signingKey.key.catch(() => (signingKey = undefined));
    }
    return signingKey.key;
  };
  let time: SigningTime | undefined;
  const timeOf = (date: Date): SigningTime => {
    const second = Math.floor(date.getTime() / 1000);
    if (time?.second !== second) {
      const longDate = date.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');
      const day = longDate.slice(0, 8);
      const scope = `${day}/${region}/s3/aws4_request`;
      time = { second, longDate, day, scope, credential: `${credentials.accessKeyId}/${scope}` };
    }
    return time;
  };

  return async (request, options) => {
    const signing = (hashes ??= await loadSigningHashes());
    if (options.expiresIn > MAX_EXPIRES_IN) {
      throw new Error('Signature version 4 presigned URLs must have an expiration date less than one week in the future');
    }
    const { longDate, day, scope, credential } = timeOf(options.signingDate ?? new Date());

    // The presigner's steps: the host header, the unsigned payload (hoisted), then the x-amz-* headers
    // moved into the query but for the unhoistable ones and server-side encryption's.
    const query: Record<string, string> = { ...request.query };
    const headers: Record<string, string> = {};
    const place = (name: string, value: string) => {
      const lower = name.toLowerCase();
      if (GENERATED.has(lower)) return;
      const hoisted =
        lower.startsWith('x-amz-') && !options.unhoistableHeaders?.has(lower) && !lower.startsWith('x-amz-server-side-encryption');
      if (hoisted) query[name] = value;
      else headers[name] = value;
    };
    for (const name in request.headers) place(name, request.headers[name]!);
    place('X-Amz-Content-Sha256', 'UNSIGNED-PAYLOAD');
    headers.host ??= `${request.hostname}${request.port != null ? `:${request.port}` : ''}`;
    query['X-Amz-Algorithm'] = 'AWS4-HMAC-SHA256';
    query['X-Amz-Credential'] = credential;
    query['X-Amz-Date'] = longDate;
    query['X-Amz-Expires'] = String(options.expiresIn);

    const canonicalHeaders: Record<string, string> = {};
    for (const name of Object.keys(headers).sort()) {
      const lower = name.toLowerCase();
      const unsignable = UNSIGNABLE.has(lower) || lower.startsWith('proxy-') || lower.startsWith('sec-');
      if (unsignable && !options.signableHeaders.has(lower)) continue;
      canonicalHeaders[lower] = canonicalValue(headers[name]!);
    }
    const signedNames = Object.keys(canonicalHeaders).sort();
    const signedList = signedNames.join(';');
    query['X-Amz-SignedHeaders'] = signedList;

    // Each name and value escaped once; the canonical query sorts the escaped names, the URL the raw ones
    // (as the SDK's formatUrl), the same order unless a name needs escaping.
    const params: QueryParam[] = [];
    for (const name in query) {
      const escapedName = escapeUri(name);
      params.push({ name, escapedName, pair: `${escapedName}=${escapeUri(query[name]!)}` });
    }
    const canonicalQuery = params
      .sort((a, b) => compare(a.escapedName, b.escapedName))
      .map((param) => param.pair)
      .join('&');
    let canonicalRequest = `${request.method}\n${request.path}\n${canonicalQuery}\n`;
    for (const name of signedNames) canonicalRequest += `${name}:${canonicalHeaders[name]}\n`;
    canonicalRequest += `\n${signedList}\nUNSIGNED-PAYLOAD`;
    const stringToSign = `AWS4-HMAC-SHA256\n${longDate}\n${scope}\n${await signing.sha256Hex(canonicalRequest)}`;
    const signature = await signing.hmacHex(await keyOf(day, signing), stringToSign);
    params.push({ name: 'X-Amz-Signature', escapedName: 'X-Amz-Signature', pair: `X-Amz-Signature=${signature}` });
    const search = params
      .sort((a, b) => compare(a.name, b.name))
      .map((param) => param.pair)
      .join('&');
    const protocol = request.protocol.endsWith(':') ? request.protocol : `${request.protocol}:`;
    return `${protocol}//${request.hostname}${request.port ? `:${request.port}` : ''}${request.path}?${search}`;
  };
}
