/**
 * The upload record: what the server decided when it prepared an upload (the object key, the route's
 * `context`, the time the upload may be stored in), written to storage at preparation, signed, beside the
 * completion markers. The completions that have no page's receipt (`reconcileUploads`, storage
 * notifications) read the upload's identity from it, never from the object: on the temporary-token strategy
 * the browser writes the object's `x-amz-meta-*` itself, so metadata would let a user name another as the
 * owner of an upload.
 *
 * One record per preparation (a renewal of a temporary-token upload writes one more), at
 * `.upbeam/uploads/{SHA-256 of the key}/{from}.{until}.{nonce}`: the name indexes the record (a listing finds
 * the records of a key and of a time), the body, `{base64url JSON}.{HMAC-SHA-256}`, is what is trusted. The
 * HMAC key is derived from the server's secret and the route's scope (`handlerScope`), as receipts are: a
 * record of another route or handler, or one written by anyone without the secret, does not verify.
 */
import { INTERNAL_PREFIX, statusOf } from './completion-marker';
import { base64url, createHmac, fromBase64url } from './hmac';
import type { StorageClientSource, UrlSigner } from './presign';
import { loadS3 } from './sdk';

/** Where upload records are kept in the bucket (under the handler's own `.upbeam/`). */
export const UPLOAD_RECORD_PREFIX = `${INTERNAL_PREFIX}uploads/`;

/**
 * Clock skew allowed between the server, which dates a record, and storage, which dates the object
 * (Last-Modified), in seconds: 5 minutes, the clock-skew threshold of SigV4 (SPEC 9).
 */
export const RECORD_CLOCK_SKEW_SECONDS = 300;

/** Most records of one key read for one object: a key prepared more often within its time is left alone. */
const MAX_RECORDS_READ = 20;

/** The fields a record holds. Times are seconds since the epoch. */
export interface UploadRecord {
  key: string;
  /** When the upload was prepared (or renewed). */
  from: number;
  /** When its receipt or ticket ends: no page can report it, nor write it, later. */
  until: number;
  /** The route's context (`upload-context.ts`), JSON text; absent: none. */
  context?: string;
}

/** What the records of a key say of one stored version of it. */
export type RecordedContext =
  | { found: true; context: string | undefined }
  /** `none`: no record of this route covers the object's time. `conflicting`: records with different contexts do. */
  | { found: false; reason: 'none' | 'conflicting' };

/** Writes and reads the upload records of one route. */
export interface UploadRecords {
  /** Writes the record of a preparation: `key`, from now until `until` (seconds since the epoch), with `context`. */
  write(key: string, until: number, context: string | undefined): Promise<void>;
  /**
   * The context of the preparation that covers a version of `key` stored at `storedAt` (its Last-Modified):
   * the records whose time (widened by {@link RECORD_CLOCK_SKEW_SECONDS}) holds it and whose signature is
   * this route's. Several that disagree on the context are `conflicting` (two users prepared the same key at
   * once: either could have stored it).
   */
  contextOf(key: string, storedAt: Date | undefined): Promise<RecordedContext>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** The folder of a key's records: its SHA-256, base64url (43 characters, whatever the key holds). */
async function recordFolder(key: string): Promise<string> {
  return `${UPLOAD_RECORD_PREFIX}${base64url(await crypto.subtle.digest('SHA-256', encoder.encode(key)))}/`;
}

/** `{from}.{until}` of a record's name, or undefined for a name that is not one. */
function timesOfName(name: string): { from: number; until: number } | undefined {
  const match = /^(\d{1,15})\.(\d{1,15})\.[A-Za-z0-9_-]+$/.exec(name);
  return match ? { from: Number(match[1]), until: Number(match[2]) } : undefined;
}

/** The fields of a record's JSON, checked; undefined when they do not fit. */
function readFields(value: unknown): UploadRecord | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const { key, from, until, context } = value as Record<string, unknown>;
  if (typeof key !== 'string' || !Number.isSafeInteger(from) || !Number.isSafeInteger(until)) return undefined;
  if (context !== undefined && typeof context !== 'string') return undefined;
  return { key, from: from as number, until: until as number, ...(context === undefined ? {} : { context }) };
}

/** What the records of one route are kept with. */
export interface UploadRecordStorage {
  Bucket: string;
  /** The server's secret access key: the records' HMAC key is derived from it and the scope. */
  secret: string;
  /** The route's scope (`routeScope`). */
  scope: string;
  /** The handler's S3 client: lists and reads records (and writes them where `signUrl` is undefined). */
  client: StorageClientSource;
  /**
   * The handler's own URL signer (`createUrlSigner`): a record is written with one presigned PUT and `fetch`,
   * without the SDK's command stack (about half its CPU, and no SDK module loaded by a presigned preparation).
   * Undefined for an access-point ARN bucket: the SDK writes it.
   */
  signUrl: UrlSigner | undefined;
  now?: () => number;
}

/** How long a record's presigned PUT is valid, in seconds: it is sent at once. */
const RECORD_PUT_EXPIRES_IN = 60;

/** How long one attempt to write a record may take, in milliseconds, before it counts as a network error. */
const RECORD_PUT_TIMEOUT_MS = 10_000;

/**
 * Sends a record's presigned PUT; a network error, a 5xx or an attempt past {@link RECORD_PUT_TIMEOUT_MS} is
 * tried once more (as the SDK's default retry would). Storage's answer is never read into an error: only its
 * status.
 * @throws Error naming the status when storage refuses the write.
 */
async function putRecord(url: string, body: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    const init = { method: 'PUT', body, headers: { 'content-type': 'text/plain' }, signal: AbortSignal.timeout(RECORD_PUT_TIMEOUT_MS) };
    const answer = await fetch(url, init).catch((error: unknown) => {
      if (attempt >= 2) throw error;
      return undefined;
    });
    await answer?.arrayBuffer().catch(() => {});
    if (answer?.ok) return;
    if (answer && (answer.status < 500 || attempt >= 2)) throw new Error(`storage answered ${answer.status} to the upload record's PutObject`);
  }
}

/**
 * The upload records of the route whose scope is `scope` (`handlerScope`), in `Bucket`, signed with a key
 * derived from `secret` (the server's secret access key). Needs `s3:PutObject` to write, and `s3:ListBucket`
 * and `s3:GetObject` to read.
 */
export function createUploadRecords({ Bucket, secret, scope, client, signUrl, now = Date.now }: UploadRecordStorage): UploadRecords {
  const hmac = createHmac(secret, 'upload-record', scope);

  /** A record's body, verified: its fields, or undefined when it is not this route's or was altered. */
  const verified = async (body: string): Promise<UploadRecord | undefined> => {
    const [payload = '', signature = '', ...rest] = body.split('.');
    if (rest.length > 0 || !(await hmac.verify(payload, signature))) return undefined;
    try {
      return readFields(JSON.parse(decoder.decode(fromBase64url(payload))));
    } catch {
      return undefined;
    }
  };

  return {
    async write(key, until, context) {
      const from = Math.floor(now() / 1000);
      const record: UploadRecord = { key, from, until, ...(context === undefined ? {} : { context }) };
      const payload = base64url(encoder.encode(JSON.stringify(record)));
      const nonce = base64url(crypto.getRandomValues(new Uint8Array(9)));
      const Key = `${await recordFolder(key)}${from}.${until}.${nonce}`;
      const Body = `${payload}.${await hmac.sign(payload)}`;
      if (signUrl) {
        const headers = { 'content-type': 'text/plain' };
        const signed = new Set(Object.keys(headers));
        await putRecord(await signUrl({ key: Key, query: {}, headers, signed, expiresIn: RECORD_PUT_EXPIRES_IN }), Body);
        return;
      }
      const { PutObjectCommand } = await loadS3();
      await (await client()).send(new PutObjectCommand({ Bucket, Key, Body, ContentType: 'text/plain' }));
    },

    async contextOf(key, storedAt) {
      const [{ GetObjectCommand, ListObjectsV2Command }, s3] = await Promise.all([loadS3(), client()]);
      const folder = await recordFolder(key);
      const stored = storedAt === undefined ? now() / 1000 : storedAt.getTime() / 1000;
      const covers = ({ from, until }: { from: number; until: number }) =>
        from - RECORD_CLOCK_SKEW_SECONDS <= stored && stored <= until + RECORD_CLOCK_SKEW_SECONDS;
      const names: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await s3.send(new ListObjectsV2Command({ Bucket, Prefix: folder, ContinuationToken }));
        for (const object of page.Contents ?? []) {
          const times = timesOfName(object.Key!.slice(folder.length));
          if (times && covers(times)) names.push(object.Key!);
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);

      // A key prepared that often within the object's time is left alone rather than read at length.
      if (names.length > MAX_RECORDS_READ) return { found: false, reason: 'conflicting' };
      const contexts = new Set<string | undefined>();
      for (const Key of names) {
        // A record gone since the listing (a lifecycle rule) is no record.
        const answer = await s3.send(new GetObjectCommand({ Bucket, Key })).catch((error: unknown) => {
          if (statusOf(error) === 404) return undefined;
          throw error;
        });
        const record = answer && (await verified(await answer.Body!.transformToString()));
        // Only the body is trusted: its key and times, not the name's.
        if (record && record.key === key && covers(record)) contexts.add(record.context);
      }
      if (contexts.size === 0) return { found: false, reason: 'none' };
      if (contexts.size > 1) return { found: false, reason: 'conflicting' };
      return { found: true, context: [...contexts][0] };
    },
  };
}
