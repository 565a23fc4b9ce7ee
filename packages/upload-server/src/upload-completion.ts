/**
 * The completion of an upload on the server: the browser reports that its object is stored; the handler
 * checks the object on storage (HEAD), deletes it when it breaks `maxFileSize` or `allowedContentTypes`,
 * and runs the app's `onUploadComplete` hook once per upload, with no state in process memory.
 *
 * Exactly once: after the checks, the handler claims the upload with a small marker object on storage,
 * written with `If-None-Match: *` (a conditional create: of two requests, on one instance or two, only one
 * succeeds; the other gets 412). The claimer runs the hook and stores its answer in the marker; a repeated
 * completion reads the stored answer instead of running the hook again. The marker's key is
 * `.upbeam/completions/{idempotencyKey}.json`, the idempotency key a hash of bucket, key, ETag and
 * Last-Modified: one stored version of the object is one upload.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import { UploadError } from './errors';
import { base64url } from './hmac';
import { loadS3 } from './sdk';
import type { ResolvedStorageSettings } from './settings';
import { checkStoredObject, type UploadPolicySettings } from './upload-policy';

/**
 * What `onUploadComplete` gets: the object as storage holds it (HEAD), the request that reported it, and
 * the route's `context` (`Context`: what its `onBeforeUpload` returned).
 */
export interface UploadCompleteContext<Context = unknown> {
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
   * browser adds: decide nothing on it that the browser should not choose.
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
}

/** Where completion markers are kept in the bucket. Object keys under it are refused at preparation. */
export const COMPLETION_MARKER_PREFIX = '.upbeam/completions/';

/**
 * How long a claim whose hook never stored an answer (the instance stopped mid-hook) blocks a new run, in
 * seconds: after it, a repeated completion runs the hook again. A hook that runs longer than this can run
 * twice.
 */
export const COMPLETION_CLAIM_SECONDS = 60;

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

interface Marker {
  state: 'running' | 'done';
  /** When the claim was made, ms since the epoch. */
  claimedAt: number;
  serverData?: unknown;
}

interface StorageFailure {
  name?: string;
  $metadata?: { httpStatusCode?: number };
}

const statusOf = (error: unknown) => (error as StorageFailure | undefined)?.$metadata?.httpStatusCode;

/**
 * A marker's text as a {@link Marker}. Text that is not a whole marker is one being written: s3rver (and
 * any storage that serves a PUT's body as it arrives) can answer a GET mid-write. It is read as a claim made
 * when the object was stored (`storedAt`), so the reader waits for the answer instead of failing, and a
 * marker that stays broken is stale after {@link COMPLETION_CLAIM_SECONDS} like any claim.
 */
function parseMarker(text: string, storedAt: number): Marker {
  try {
    const marker = JSON.parse(text) as Partial<Marker> | null;
    if (marker && (marker.state === 'running' || marker.state === 'done') && typeof marker.claimedAt === 'number') {
      return marker as Marker;
    }
  } catch {
    // Falls through: a half-written marker.
  }
  return { state: 'running', claimedAt: storedAt };
}

/** The completion of one handler. */
export interface Completion {
  /**
   * Checks the object at `key` and runs the hook once.
   * @throws {@link UploadError} `INVALID_REQUEST` (400) when nothing is stored at `key`; `FILE_TOO_LARGE`
   *   (413) or `UNSUPPORTED_MEDIA_TYPE` (415) when the stored object breaks the policy (it is deleted);
   *   `COMPLETION_IN_PROGRESS` (409) when another request runs the hook for it for longer than 10 s; the
   *   hook's own `UploadError`. Storage errors and other hook errors propagate (500, logged).
   */
  complete(key: string, request: Request, context?: unknown): Promise<CompletedUpload>;
}

export interface CompletionDependencies {
  settings: ResolvedStorageSettings;
  client: S3Client;
  policy: UploadPolicySettings;
  onUploadComplete: UploadCompleteHook | undefined;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** SSE-C parameters for reading an object stored with the configured customer key. */
function customerKey(settings: ResolvedStorageSettings) {
  const key = settings.sseCustomerKey;
  return key ? { SSECustomerAlgorithm: 'AES256', SSECustomerKey: key as unknown as string } : {};
}

async function sha256(text: string): Promise<string> {
  return base64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
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

/**
 * The completion step of a handler ({@link Completion}). Needs, for the server's credentials, `s3:GetObject`
 * (HEAD, reading markers), `s3:PutObject` (markers) and `s3:DeleteObject` (a refused object, a failed claim).
 */
export function createCompletion(deps: CompletionDependencies): Completion {
  const { settings, client, policy, onUploadComplete } = deps;
  const Bucket = settings.bucket;
  const now = deps.now ?? Date.now;
  const sleep = deps.sleep ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));

  const readMarker = async (Key: string): Promise<Marker | undefined> => {
    const { GetObjectCommand } = await loadS3();
    try {
      const answer = await client.send(new GetObjectCommand({ Bucket, Key }));
      return parseMarker(await answer.Body!.transformToString(), answer.LastModified?.getTime() ?? now());
    } catch (error) {
      // S3 answers 403, not 404, for a missing key when the credentials lack s3:ListBucket; the HEAD of the
      // object has just shown that they may read the bucket, so 403 here is a marker not written yet.
      if (statusOf(error) === 404 || statusOf(error) === 403) return undefined;
      throw error;
    }
  };

  const writeMarker = async (Key: string, marker: Marker, createOnly: boolean) =>
    client.send(
      new (await loadS3()).PutObjectCommand({
        Bucket,
        Key,
        Body: JSON.stringify(marker),
        ContentType: 'application/json',
        ...(createOnly ? { IfNoneMatch: '*' } : {}),
      }),
    );

  /** Claims the run of the hook: true when this request won (conditional create), false when another holds it. */
  const claim = async (Key: string): Promise<boolean> => {
    try {
      await writeMarker(Key, { state: 'running', claimedAt: now() }, true);
      return true;
    } catch (error) {
      // 412 PreconditionFailed: the marker exists. 409 ConditionalRequestConflict: a concurrent create.
      if (statusOf(error) === 412 || statusOf(error) === 409) return false;
      throw error;
    }
  };

  const release = async (Key: string) => client.send(new (await loadS3()).DeleteObjectCommand({ Bucket, Key })).catch(() => {});

  /** The stored answer of another run of the hook, waiting while it runs; undefined when the claim is stale. */
  const answerOfOtherRun = async (Key: string): Promise<Marker | undefined> => {
    const deadline = now() + WAIT_FOR_ANSWER_MS;
    for (let poll = FIRST_POLL_MS; ; poll = Math.min(poll * 2, MAX_POLL_MS)) {
      const marker = await readMarker(Key);
      if (marker === undefined) return undefined;
      if (marker.state === 'done') return marker;
      if (now() - marker.claimedAt > COMPLETION_CLAIM_SECONDS * 1000) {
        await release(Key);
        return undefined;
      }
      if (now() >= deadline) {
        throw new UploadError('COMPLETION_IN_PROGRESS', 'This upload is being completed by another request: ask again in a few seconds.');
      }
      await sleep(Math.min(poll, Math.max(0, deadline - now())));
    }
  };

  const runHookOnce = async (hook: UploadCompleteHook, context: UploadCompleteContext): Promise<unknown> => {
    const Key = `${COMPLETION_MARKER_PREFIX}${context.idempotencyKey}.json`;
    // Two rounds: the second after a stale claim was released.
    for (let round = 0; round < 2; round += 1) {
      const stored = await readMarker(Key);
      if (stored?.state === 'done') return stored.serverData;
      if (stored === undefined && (await claim(Key))) {
        let serverData: unknown;
        try {
          serverData = serverDataJson(await hook(context));
        } catch (error) {
          // No answer was given: a repeated completion runs the hook again.
          await release(Key);
          throw error;
        }
        await writeMarker(Key, { state: 'done', claimedAt: now(), serverData }, false);
        return serverData;
      }
      const other = await answerOfOtherRun(Key);
      if (other) return other.serverData;
    }
    throw new UploadError('COMPLETION_IN_PROGRESS', 'This upload is being completed by another request: ask again in a few seconds.');
  };

  return {
    async complete(key, request, routeContext) {
      const { DeleteObjectCommand, HeadObjectCommand } = await loadS3();
      const head = await client.send(new HeadObjectCommand({ Bucket, Key: key, ...customerKey(settings) })).catch((error: unknown) => {
        if (statusOf(error) === 404) throw new UploadError('INVALID_REQUEST', 'Nothing is stored at this key yet.');
        throw error;
      });
      const size = head.ContentLength ?? 0;
      const contentType = head.ContentType ?? 'application/octet-stream';
      const refusal = checkStoredObject(policy, { size, contentType });
      if (refusal) {
        await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
        throw refusal;
      }
      if (!onUploadComplete) return { key, size };
      const etag = head.ETag ?? '';
      const lastModified = head.LastModified;
      const idempotencyKey = await sha256(`${Bucket}\n${key}\n${etag}\n${lastModified?.toISOString() ?? ''}`);
      const context: UploadCompleteContext = {
        context: routeContext,
        key,
        size,
        etag,
        contentType,
        metadata: head.Metadata ?? {},
        lastModified,
        idempotencyKey,
        request,
      };
      const serverData = await runHookOnce(onUploadComplete, context);
      return serverData === undefined ? { key, size } : { key, size, serverData };
    },
  };
}
