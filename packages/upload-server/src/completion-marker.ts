/**
 * The completion record of one stored object: a small marker object on storage that claims the run of
 * `onUploadComplete` and then holds its answer. Both ways the server hears of an upload use it, the page's
 * report (`upload-completion.ts`) and the reconciliation (`reconcile.ts`): whichever claims first runs the
 * hook; the other reads its answer.
 *
 * The marker's key is `.upbeam/completions/{idempotencyKey}.json`, the idempotency key a hash of bucket, key,
 * ETag and Last-Modified: one stored version of the object is one upload. It is created with
 * `If-None-Match: *` (a conditional create: of two requests, on one instance or two, only one succeeds; the
 * other gets 412).
 */
import type { S3Client } from '@aws-sdk/client-s3';
import { base64url } from './hmac';
import { loadS3 } from './sdk';

/**
 * Where the handler keeps its own objects in the bucket: completion markers and upload records
 * (`upload-record.ts`). Object keys under it are refused at preparation.
 */
export const INTERNAL_PREFIX = '.upbeam/';

/** Where completion markers are kept in the bucket. */
export const COMPLETION_MARKER_PREFIX = `${INTERNAL_PREFIX}completions/`;

/**
 * How long a claim whose hook never stored an answer (the instance stopped mid-hook) blocks a new run, in
 * seconds: after it, a repeated completion runs the hook again. A hook that runs longer than this can run
 * twice.
 */
export const COMPLETION_CLAIM_SECONDS = 60;

export interface Marker {
  state: 'running' | 'done';
  /** When the claim was made, ms since the epoch. */
  claimedAt: number;
  serverData?: unknown;
}

interface StorageFailure {
  $metadata?: { httpStatusCode?: number };
}

export const statusOf = (error: unknown) => (error as StorageFailure | undefined)?.$metadata?.httpStatusCode;

/** The marker's object key for an idempotency key. */
export const markerKey = (idempotencyKey: string) => `${COMPLETION_MARKER_PREFIX}${idempotencyKey}.json`;

/**
 * The idempotency key of one stored version of an object (base64url SHA-256 of bucket, key, ETag and
 * Last-Modified, 43 characters). Last-Modified is taken to the second, as a HEAD answer gives it (an
 * HTTP date): a listing's millisecond timestamp of the same version gives the same key.
 */
export async function idempotencyKeyOf(bucket: string, key: string, etag: string, lastModified: Date | undefined): Promise<string> {
  const seconds = lastModified === undefined ? '' : new Date(Math.floor(lastModified.getTime() / 1000) * 1000).toISOString();
  const text = `${bucket}\n${key}\n${etag}\n${seconds}`;
  return base64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}

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

/** Reads, claims, answers and releases the markers of one bucket. */
export interface MarkerStore {
  /** The marker at `Key`, undefined when there is none. */
  read(Key: string): Promise<Marker | undefined>;
  /** Whether a read marker is a claim older than {@link COMPLETION_CLAIM_SECONDS} (its run stopped). */
  isStale(marker: Marker): boolean;
  /** Claims the run of the hook: true when this request won (conditional create), false when another holds it. */
  claim(Key: string): Promise<boolean>;
  /** Stores the hook's answer: later completions read it instead of running the hook. */
  answer(Key: string, serverData: unknown): Promise<void>;
  /** Deletes the marker (a failed run, a stale claim); errors are ignored. */
  release(Key: string): Promise<void>;
}

export function createMarkerStore(client: S3Client, Bucket: string, now: () => number): MarkerStore {
  const write = async (Key: string, marker: Marker, createOnly: boolean) => {
    await client.send(
      new (await loadS3()).PutObjectCommand({
        Bucket,
        Key,
        Body: JSON.stringify(marker),
        ContentType: 'application/json',
        ...(createOnly ? { IfNoneMatch: '*' } : {}),
      }),
    );
  };
  return {
    async read(Key) {
      const { GetObjectCommand } = await loadS3();
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key }));
        return parseMarker(await answer.Body!.transformToString(), answer.LastModified?.getTime() ?? now());
      } catch (error) {
        // S3 answers 403, not 404, for a missing key when the credentials lack s3:ListBucket; the caller has
        // just shown that they may read the bucket, so 403 here is a marker not written yet.
        if (statusOf(error) === 404 || statusOf(error) === 403) return undefined;
        throw error;
      }
    },
    isStale: (marker) => marker.state === 'running' && now() - marker.claimedAt > COMPLETION_CLAIM_SECONDS * 1000,
    async claim(Key) {
      try {
        await write(Key, { state: 'running', claimedAt: now() }, true);
        return true;
      } catch (error) {
        // 412 PreconditionFailed: the marker exists. 409 ConditionalRequestConflict: a concurrent create.
        if (statusOf(error) === 412 || statusOf(error) === 409) return false;
        throw error;
      }
    },
    answer: (Key, serverData) => write(Key, { state: 'done', claimedAt: now(), serverData }, false),
    async release(Key) {
      await client.send(new (await loadS3()).DeleteObjectCommand({ Bucket, Key })).catch(() => {});
    },
  };
}
