/**
 * The completion of an upload on the server: the browser reports that its object is stored (or the
 * reconciliation finds it, `reconcile.ts`); the handler checks the object on storage (HEAD), deletes it when
 * it breaks `maxFileSize` or `allowedContentTypes`, and runs the app's `onUploadComplete` hook once per
 * upload, with no state in process memory.
 *
 * Exactly once: after the checks, the handler claims the upload with a small marker object on storage
 * (`completion-marker.ts`). The claimer runs the hook and stores its answer in the marker; a repeated
 * completion reads the stored answer instead of running the hook again.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import type { ChecksumAlgorithm, ObjectChecksum } from '@upbeam/upload-protocol';
import { objectChecksum, reportedChecksum } from './upload-checksum';
import { createMarkerStore, idempotencyKeyOf, markerKey, statusOf, type Marker } from './completion-marker';
import { logUnexpectedError, UploadError } from './errors';
import { loadS3 } from './sdk';
import type { ResolvedStorageSettings } from './settings';
import { readContext } from './upload-context';
import { checkStoredObject, type UploadPolicySettings } from './upload-policy';
import { removeRefusedObject } from './refused-object';
import type { UploadRecords } from './upload-record';
import { countStoredBytes, timedHook } from './telemetry';
import type { RouteLimits } from './upload-limits';

/**
 * What `onUploadComplete` gets: the object as storage holds it (HEAD), the route's `context` (`Context`: what
 * its `onBeforeUpload` returned when the upload was prepared, on every path), and who told the server of it:
 * the page's report (with its request), or the server itself (`reconcileUploads`, `completeNotifiedUploads`:
 * no request).
 */
export type UploadCompleteContext<Context = unknown> = StoredUpload & (ReportedUpload<Context> | ReconciledUpload<Context>);

/** The stored object, as a HEAD of it answers. */
export interface StoredUpload {
  /** Object key. */
  key: string;
  /** Stored size, in bytes (HEAD `Content-Length`). */
  size: number;
  /** Stored ETag, in quotes (`"{md5}"` for one PUT, `"{md5}-{parts}"` for a multipart upload on S3). */
  etag: string;
  /** Stored content type (HEAD `Content-Type`). */
  contentType: string;
  /**
   * Stored user metadata (`x-amz-meta-*`, names lower-cased). On the temporary-token strategy the browser
   * sends these headers itself, and on both strategies storage applies unsigned `x-amz-meta-*` headers a
   * browser adds: decide nothing on it that the browser should not choose (who owns the upload: read
   * `context`, which the server decided).
   */
  metadata: Record<string, string>;
  /** When storage stored it (HEAD `Last-Modified`). */
  lastModified: Date | undefined;
  /**
   * The same for every completion of this stored version of the object (a hash of bucket, key, ETag and
   * Last-Modified; base64url, 43 characters): a database write keyed on it stays single even where the
   * storage marker cannot guarantee it (see `onUploadComplete`).
   */
  idempotencyKey: string;
  /**
   * The object's checksum as the server knows it, never the browser's word: the one it signed into the upload
   * (a presigned PUT's URL, carried in its receipt) or storage reported when it completed a multipart upload.
   * The stored object was checked to have it where storage reports checksums (HEAD with checksum mode; not
   * MD5, whose ETag changes with encryption). MD5 in lowercase hex, the others base64 (`-N`: composite).
   * Undefined: the upload carried none, or the server found the object itself (`source: 'reconcile'`).
   */
  checksum?: ObjectChecksum;
  /**
   * `true` when the browser sent nothing: storage already held these bytes at this content-addressed key (a
   * route with `contentAddressed`), so the object may be shared by other uploads: it is never deleted here.
   */
  deduplicated?: true;
}

/** What the server knows of an upload beyond its key: from its receipt or multipart ticket. */
export interface CompletionFacts {
  /** The checksum it signed into the upload (or storage reported at a multipart completion): see {@link StoredUpload.checksum}. */
  checksum?: { algorithm: ChecksumAlgorithm; value: string } | undefined;
  /** Nothing was sent: the object was already stored (content-addressed). */
  deduplicated?: boolean | undefined;
  /**
   * Names a deduplicated upload (its receipt's signature): its hook runs once per such upload, where a stored
   * version otherwise runs it once (the object is the first upload's, whose hook ran already).
   */
  upload?: string | undefined;
}

/** The page reported the upload (`_upload.complete`, or a multipart `complete`). */
export interface ReportedUpload<Context = unknown> {
  /** Who told the server: the page. */
  source: 'page';
  /** The request that reported the completion (cookies, headers, session). */
  request: Request;
  /**
   * What `onBeforeUpload` returned when this upload was prepared (e.g. `{ userId }`), but its `key`,
   * `metadata` and `contentDisposition`, given back as JSON gives it (carried, signed, in the upload's receipt or ticket: the browser can read it, not change it;
   * at most 1 KiB of JSON). On a renewed temporary-token upload, what the latest renewal's returned.
   * `undefined` when the hook returned nothing or there is none.
   */
  context: Context;
}

/**
 * The server found the object itself with no completion record: `reconcileUploads` listed it (the page never
 * reported it: the tab was closed after the last byte), or `completeNotifiedUploads` got storage's
 * notification of it. There is no request and no session; the owner is in `context`, read from the upload's
 * record that the server wrote, signed, when it prepared the upload (`.upbeam/uploads/`): an object no record
 * of the route covers never runs the hook. What the hook returns is stored: a page that reports later gets it.
 */
export interface ReconciledUpload<Context = unknown> {
  /** Who told the server: nobody, it found the object itself. */
  source: 'reconcile';
  /** No request reported it. */
  request: undefined;
  /**
   * What `onBeforeUpload` returned when this upload was prepared, as {@link ReportedUpload.context}: read from
   * the upload's record (on a renewed temporary-token upload, what its first preparation returned), never from the
   * object, whose metadata the browser can write.
   */
  context: Context;
}

/**
 * Runs once per upload, after the object passed the handler's checks. Whatever JSON it returns reaches the
 * browser's result as `serverData`; throw an `UploadError` (4xx) to refuse (the object is kept: delete it
 * yourself if you refuse it).
 */
export type UploadCompleteHook = (context: UploadCompleteContext) => unknown;

/** What the completion answers: the object's key and size, and the hook's `serverData` when it returned some. */
export interface CompletedUpload {
  key: string;
  size: number;
  serverData?: unknown;
  /** The object's checksum as the server knows it ({@link StoredUpload.checksum}). */
  checksum?: ObjectChecksum;
  /** Nothing was sent: storage already held the object (content-addressed). */
  deduplicated?: true;
}

/** The answer's fields of a checked object beyond its key and size. */
const answerFacts = ({ checksum, deduplicated }: Pick<StoredUpload, 'checksum' | 'deduplicated'>) => ({
  ...(checksum === undefined ? {} : { checksum }),
  ...(deduplicated ? { deduplicated } : {}),
});

/** How long a completion that finds the hook running elsewhere waits for its answer, in milliseconds. */
const WAIT_FOR_ANSWER_MS = 10_000;
/**
 * How often it reads the marker meanwhile, in milliseconds: first after 200 ms, then twice as long each
 * time up to 2 s (9 reads in 10 s, where a fixed 200 ms made 50 reports during a slow hook cost ~31 storage
 * requests each).
 */
const FIRST_POLL_MS = 200;
const MAX_POLL_MS = 2000;

/** Largest `serverData` stored, in bytes of JSON: it is sent back to the browser with every repeat. */
export const MAX_SERVER_DATA_BYTES = 64 * 1024;

/** The completion of one handler (or route). */
export interface Completion {
  /**
   * Checks the object at `key` and runs the hook once. With `limits`, the upload's reservation is settled to
   * the stored size (or released when the object is refused); `declared`: the size the upload was prepared
   * with (a temporary-token receipt, a multipart ticket), which the stored object may not pass.
   * @throws {@link UploadError} `INVALID_REQUEST` (400) when nothing is stored at `key`; `FILE_TOO_LARGE`
   *   (413) or `UNSUPPORTED_MEDIA_TYPE` (415) when the stored object breaks the policy or is larger than
   *   `declared` (it is deleted);
   *   `COMPLETION_IN_PROGRESS` (409) when another request runs the hook for it for longer than 10 s; the
   *   hook's own `UploadError`; `CHECKSUM_MISMATCH` (409) when storage reports another checksum than
   *   `facts.checksum` (the object is deleted, but a deduplicated one). Storage errors and other hook errors
   *   propagate (500, logged). A deduplicated object is never deleted: a refusal leaves it.
   */
  complete(key: string, request: Request, context?: unknown, declared?: number, facts?: CompletionFacts): Promise<CompletedUpload>;
  /**
   * The checksum of `algorithm` storage holds for the object at `key` (HEAD with checksum mode); undefined when
   * nothing is stored there or storage reports none of that algorithm (never MD5).
   */
  storedChecksum(key: string, algorithm: ChecksumAlgorithm): Promise<string | undefined>;
  /**
   * The same for an object nobody reported (`reconcile.ts`): the same checks and marker, the hook gets
   * `source: 'reconcile'` and the context of the upload's record. `ran` says whether this call ran the hook
   * (false: a report had, or no hook). `unprepared`: no record of this route covers the object (`none`: not
   * prepared by it, or prepared before records were kept, or the record expired; `conflicting`: records of
   * preparations with different contexts do): the hook did not run.
   * @throws as {@link Completion.complete}.
   */
  reconcile(key: string): Promise<{ upload: CompletedUpload; ran: boolean } | { unprepared: 'none' | 'conflicting' }>;
}

export interface CompletionDependencies {
  settings: ResolvedStorageSettings;
  client: S3Client;
  policy: UploadPolicySettings;
  onUploadComplete: UploadCompleteHook | undefined;
  /** The route's upload records, read by {@link Completion.reconcile}. */
  records: UploadRecords;
  /** The route's name, for telemetry (`telemetry.ts`); undefined without routes. */
  route?: string | undefined;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Gets what the completion could not do but did not fail for (a refused version it cannot delete). @default console.error */
  onError?: ((error: unknown) => void) | undefined;
  /** The route's limits: a completion settles the upload's reservation to the stored size (`upload-limits.ts`). */
  limits?: RouteLimits | undefined;
}

/** SSE-C parameters for reading an object stored with the configured customer key. */
function customerKey(settings: ResolvedStorageSettings) {
  const key = settings.sseCustomerKey;
  return key ? { SSECustomerAlgorithm: 'AES256', SSECustomerKey: key as unknown as string } : {};
}

/** The hook's answer as JSON text, checked: serialisable and at most {@link MAX_SERVER_DATA_BYTES}. */
function serverDataJson(value: unknown): unknown {
  if (value === undefined) return undefined;
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError('onUploadComplete returned a value JSON cannot hold (a function or symbol).');
  if (new TextEncoder().encode(text).byteLength > MAX_SERVER_DATA_BYTES) {
    throw new RangeError(`onUploadComplete returned more than ${MAX_SERVER_DATA_BYTES} bytes of JSON.`);
  }
  return JSON.parse(text);
}

/** 413 for an object stored larger than the size its upload declared (and reserved, with `limits`). */
function largerThanDeclared(size: number, declared: number | undefined): UploadError | undefined {
  if (declared === undefined || size <= declared) return undefined;
  return new UploadError('FILE_TOO_LARGE', `The stored file (${size} bytes) is larger than the ${declared} bytes declared when its upload was prepared.`);
}

/** 409 for an object whose stored checksum (as storage reports it) is not the one its upload was signed with. */
function otherChecksum(head: Parameters<typeof reportedChecksum>[0], expected: CompletionFacts['checksum']): UploadError | undefined {
  if (expected === undefined) return undefined;
  const stored = reportedChecksum(head, expected.algorithm);
  if (stored === undefined || stored === expected.value) return undefined;
  return new UploadError('CHECKSUM_MISMATCH', `The stored file's ${expected.algorithm} checksum is not the one its upload was prepared with.`);
}

/**
 * The completion step of a handler ({@link Completion}). Needs, for the server's credentials, `s3:GetObject`
 * (HEAD, reading markers), `s3:PutObject` (markers) and `s3:DeleteObject` (a refused object, a failed claim).
 */
export function createCompletion(deps: CompletionDependencies): Completion {
  const { settings, client, policy, onUploadComplete } = deps;
  const Bucket = settings.bucket;
  const now = deps.now ?? Date.now;
  const sleep = deps.sleep ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));
  const markers = createMarkerStore(client, Bucket, now);
  const log = deps.onError ?? logUnexpectedError;

  /** The stored answer of another run of the hook, waiting while it runs; undefined when the claim is stale. */
  const answerOfOtherRun = async (Key: string): Promise<Marker | undefined> => {
    const deadline = now() + WAIT_FOR_ANSWER_MS;
    for (let poll = FIRST_POLL_MS; ; poll = Math.min(poll * 2, MAX_POLL_MS)) {
      const marker = await markers.read(Key);
      if (marker === undefined) return undefined;
      if (marker.state === 'done') return marker;
      if (markers.isStale(marker)) {
        await markers.release(Key);
        return undefined;
      }
      if (now() >= deadline) {
        throw new UploadError('COMPLETION_IN_PROGRESS', 'This upload is being completed by another request: ask again in a few seconds.');
      }
      await sleep(Math.min(poll, Math.max(0, deadline - now())));
    }
  };

  /** The hook's answer for this upload: this call's run (`ran`), or the stored answer of another. */
  const runHookOnce = async (hook: UploadCompleteHook, context: UploadCompleteContext): Promise<{ serverData: unknown; ran: boolean }> => {
    const Key = markerKey(context.idempotencyKey);
    // Two rounds: the second after a stale claim was released.
    for (let round = 0; round < 2; round += 1) {
      const stored = await markers.read(Key);
      if (stored?.state === 'done') return { serverData: stored.serverData, ran: false };
      if (stored === undefined && (await markers.claim(Key))) {
        let serverData: unknown;
        try {
          serverData = serverDataJson(await timedHook(deps.route, context.source, async () => hook(context)));
        } catch (error) {
          // No answer was given: a repeated completion runs the hook again.
          await markers.release(Key);
          throw error;
        }
        await markers.answer(Key, serverData);
        return { serverData, ran: true };
      }
      const other = await answerOfOtherRun(Key);
      if (other) return { serverData: other.serverData, ran: false };
    }
    throw new UploadError('COMPLETION_IN_PROGRESS', 'This upload is being completed by another request: ask again in a few seconds.');
  };

  /**
   * The object at `key` as storage holds it (HEAD), once it passed the policy checks (a breaking object is
   * deleted, its reservation released and the refusal thrown), its reservation settled to its size.
   */
  const checkedObject = async (key: string, declared?: number, facts: CompletionFacts = {}): Promise<Omit<StoredUpload, 'idempotencyKey'>> => {
    const { HeadObjectCommand } = await loadS3();
    const expected = facts.checksum;
    // Checksum mode: storage reports the object's checksum (MD5's is the ETag, which encryption changes).
    const checksumMode = expected !== undefined && expected.algorithm !== 'md5' ? { ChecksumMode: 'ENABLED' as const } : {};
    const head = await client.send(new HeadObjectCommand({ Bucket, Key: key, ...checksumMode, ...customerKey(settings) })).catch((error: unknown) => {
      if (statusOf(error) === 404) throw new UploadError('INVALID_REQUEST', 'Nothing is stored at this key yet.');
      throw error;
    });
    const size = head.ContentLength ?? 0;
    const contentType = head.ContentType ?? 'application/octet-stream';
    const refusal = checkStoredObject(policy, { size, contentType }) ?? largerThanDeclared(size, declared) ?? otherChecksum(head, expected);
    if (refusal) {
      // The version the HEAD saw, lock lifted where it can be; logged where it cannot (COMPLIANCE). A
      // deduplicated object is another upload's too: it stays.
      if (!facts.deduplicated) {
        await removeRefusedObject(client, Bucket, key, head, log);
        await deps.limits?.release(key);
      }
      throw refusal;
    }
    if (!facts.deduplicated) await deps.limits?.settle(key, size);
    return {
      key,
      size,
      etag: head.ETag ?? '',
      contentType,
      metadata: head.Metadata ?? {},
      lastModified: head.LastModified,
      ...(expected === undefined ? {} : { checksum: objectChecksum(expected.algorithm, expected.value) }),
      ...(facts.deduplicated ? { deduplicated: true as const } : {}),
    };
  };

  /** The hook once for the `checked` object, told by `reporter`, and what the completion answers. */
  const completed = async (hook: UploadCompleteHook, checked: Omit<StoredUpload, 'idempotencyKey'>, reporter: ReportedUpload | ReconciledUpload, upload?: string) => {
    const { key, size, etag, lastModified } = checked;
    const idempotencyKey = await idempotencyKeyOf(Bucket, key, upload === undefined ? etag : `${etag}\n${upload}`, lastModified);
    const { serverData, ran } = await runHookOnce(hook, { ...checked, idempotencyKey, ...reporter });
    const facts = answerFacts(checked);
    return { upload: serverData === undefined ? { key, size, ...facts } : { key, size, ...facts, serverData }, ran };
  };

  return {
    async complete(key, request, context, declared, facts) {
      const stored = await checkedObject(key, declared, facts);
      // The stored bytes are counted once per upload: on each report without a hook, else by the run that ran it.
      if (!onUploadComplete) {
        if (!stored.deduplicated) countStoredBytes(deps.route, stored.size);
        return { key, size: stored.size, ...answerFacts(stored) };
      }
      const { upload, ran } = await completed(onUploadComplete, stored, { source: 'page', request, context }, stored.deduplicated ? facts?.upload : undefined);
      if (ran && !stored.deduplicated) countStoredBytes(deps.route, stored.size);
      return upload;
    },
    async storedChecksum(key, algorithm) {
      if (algorithm === 'md5') return undefined;
      const { HeadObjectCommand } = await loadS3();
      const head = await client.send(new HeadObjectCommand({ Bucket, Key: key, ChecksumMode: 'ENABLED', ...customerKey(settings) })).catch((error: unknown) => {
        if (statusOf(error) === 404) return undefined;
        throw error;
      });
      return head === undefined ? undefined : reportedChecksum(head, algorithm);
    },
    async reconcile(key) {
      const stored = await checkedObject(key);
      if (!onUploadComplete) return { upload: { key, size: stored.size }, ran: false };
      // The upload's identity is what the server decided at preparation (its record), never the object's
      // metadata, which the browser can write.
      const recorded = await deps.records.contextOf(key, stored.lastModified);
      if (!recorded.found) return { unprepared: recorded.reason };
      const result = await completed(onUploadComplete, stored, { source: 'reconcile', request: undefined, context: readContext(recorded.context) });
      if (result.ran) countStoredBytes(deps.route, stored.size);
      return result;
    },
  };
}
