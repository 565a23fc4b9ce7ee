/**
 * The part engine of both strategies: one {@link MultipartUpload} per upload owns its AbortController, its
 * parts and its progress (the shape of Uppy's `MultipartUploader`). Each part is a `Blob.slice()` sent with
 * `XMLHttpRequest`: the browser reads it from disk as it sends, no byte of the file passes through
 * JavaScript memory. With `checksum: 'md5'` each part is hashed before it is sent (`checksum.ts`; the next
 * parts while parts are in flight) and sent with its `Content-MD5`, which storage verifies.
 */
import type { CompletedPart, ObjectChecksum } from '@upbeam/upload-protocol';
import { createAbortError, onAbort } from './abort';
import type { ChecksumOption } from './checksum';
import { UploadClientError } from './errors';
import type { MultipartBackend, SignedPartRequest } from './multipart-backend';
import type { PauseController } from './pause';
import { partRanges, type PartRange } from './part-math';
import { putBody } from './put-object';
import type { RetrySettings } from './retry';
import { etagIn } from './s3-answer';
import { sendLoop } from './send-loop';

/** One multipart upload to send, its upload id already on storage. */
export interface MultipartUploadInput {
  file: Blob;
  /** Size of every part but the last, in bytes. */
  partSize: number;
  /** Parts sent at once. */
  queueSize: number;
  /** Parts already on storage (a resumed upload): not sent again. */
  completed: readonly CompletedPart[];
  backend: MultipartBackend;
  /** `maxAttempts` per part (and per completion), `onRetry`; `signal` cancels the upload. */
  retry: RetrySettings;
  pauseController?: PauseController | undefined;
  /** `'md5'`: each part carries its `Content-MD5`; `false` or unset: none. */
  checksum?: ChecksumOption | undefined;
  /** Receives the bytes stored and in flight, summed over the parts (may go back when a part restarts). */
  onProgress: (uploaded: number) => void;
  /** Called when a part is stored, with its ETag (the resume journal keeps it). */
  onPartStored?: ((part: CompletedPart) => void) | undefined;
  /** Called with the first signed part URL (the object's address is that URL without its query). */
  onFirstSigned?: ((request: SignedPartRequest) => void) | undefined;
}

/** The part's range, its ETag once stored, and the bytes of it sent so far. */
interface Part extends PartRange {
  etag?: string;
  sent: number;
}

/** Message of `MISSING_ETAG`: SPEC 5, the hint about the bucket's cross-origin settings. */
const missingEtagMessage = (partNumber: number) =>
  `Part ${partNumber} is missing ETag in UploadPart response. Missing Bucket CORS configuration for ETag header? Add "ETag" to the bucket's CORS ExposeHeaders: without it the browser cannot read part ETags and the multipart upload cannot complete.`;

/**
 * Sends the parts a multipart upload lacks, `queueSize` at once, then completes it.
 * - Each part is retried on its own (backoff with jitter, `Retry-After`), and signed again when its
 *   signature expired; an answer without a readable `ETag` fails with `MISSING_ETAG` after the retries.
 * - Progress is the sum of the parts' upload events: bytes of stored parts plus bytes in flight.
 * - Pause (`pauseController`) stops the parts in flight at once; resume sends what is missing.
 * - Cancel (`retry.signal`) stops the parts in flight at once; the promise rejects with `AbortError`.
 * The caller decides what happens on storage after a failure or a cancel (abort, or keep for resume).
 */
export class MultipartUpload {
  readonly #input: MultipartUploadInput;
  readonly #parts: Part[];
  /** Signed requests by part number, made or being made. */
  readonly #signed = new Map<number, Promise<SignedPartRequest>>();
  /** Stops the parts of the current run: aborted by a cancel, a pause, or a part's final failure. */
  #run = new AbortController();
  /** Bytes of the stored parts; with the parts in flight, the progress (kept as sums: 10000 parts is O(1)). */
  #storedBytes = 0;
  readonly #inFlight = new Set<Part>();
  /** MD5 digests by part number, hashed or being hashed (kept for retries and the object's checksum). */
  readonly #digests = new Map<number, Promise<Uint8Array>>();
  #firstSigned = false;

  constructor(input: MultipartUploadInput) {
    this.#input = input;
    const stored = new Map(input.completed.map((part) => [part.partNumber, part.etag]));
    this.#parts = partRanges(input.file.size, input.partSize).map((range) => {
      const etag = stored.get(range.partNumber);
      if (etag) this.#storedBytes += range.end - range.start;
      return { ...range, sent: 0, ...(etag && { etag }) };
    });
  }

  /**
   * Sends the missing parts and completes the upload.
   * @returns the object's `composite` checksum with `checksum: 'md5'` (parts stored before a resume are
   *   hashed too), else `undefined`.
   * @throws `AbortError` DOMException (`Upload aborted.`) when cancelled, even while paused.
   * @throws {@link UploadClientError} of the first part that failed after its retries, or of the completion.
   */
  async upload(): Promise<ObjectChecksum | undefined> {
    const { retry, pauseController } = this.#input;
    const stopCancel = onAbort(retry.signal, () => this.#run.abort());
    const stopPause = pauseController?.subscribe(() => {
      if (pauseController.paused) this.#run.abort();
    });
    try {
      for (;;) {
        await waitWhilePaused(pauseController, retry.signal);
        this.#run = new AbortController();
        try {
          await this.#sendParts(this.#run.signal);
          break;
        } catch (error) {
          if (retry.signal?.aborted) throw createAbortError();
          if (!pauseController?.paused) throw error;
        }
      }
      this.#report();
      const checksum = await this.#objectChecksum();
      await this.#input.backend.complete(this.#completedParts(), retry.signal);
      return checksum;
    } finally {
      stopCancel();
      stopPause?.();
      this.#run.abort();
    }
  }

  /** Every part with its ETag, in order (once all are stored). */
  #completedParts(): CompletedPart[] {
    return this.#parts.map(({ partNumber, etag }) => ({ partNumber, etag: etag! }));
  }

  /**
   * The part's MD5 digest. The `queueSize` parts after it are hashed next, while parts are in flight, so
   * that a sender finds its part's digest ready instead of waiting for it (faster than hashing each part when
   * its sender takes it: bench/RESULTS.md, "One-off measurements behind design choices").
   */
  #md5(part: Part): Promise<Uint8Array> {
    const index = part.partNumber - 1; // #parts holds every part, in part-number order
    const [digest] = this.#parts.slice(index, index + 1 + this.#input.queueSize).map((next) => this.#hash(next));
    return digest!;
  }

  /** The part's MD5 digest, hashed on first use (after the hashes asked before it); a failed hash is not kept. */
  #hash(part: Part): Promise<Uint8Array> {
    let digest = this.#digests.get(part.partNumber);
    if (!digest) {
      const blob = this.#input.file.slice(part.start, part.end);
      digest = import('./checksum').then(({ md5Of }) => md5Of(blob));
      // Handled here (a part hashed ahead may fail unasked); its sender sees the error.
      digest.catch(() => this.#digests.delete(part.partNumber));
      this.#digests.set(part.partNumber, digest);
    }
    return digest;
  }

  /** The composite checksum of the parts, with `checksum: 'md5'`. */
  async #objectChecksum(): Promise<ObjectChecksum | undefined> {
    if (this.#input.checksum !== 'md5') return undefined;
    const digests: Uint8Array[] = [];
    for (const part of this.#parts) digests.push(await this.#md5(part));
    const { compositeChecksum } = await import('./checksum');
    return compositeChecksum(digests);
  }

  /** Reports the bytes of the stored parts and of the parts in flight. */
  #report(): void {
    let uploaded = this.#storedBytes;
    for (const part of this.#inFlight) uploaded += part.sent;
    this.#input.onProgress(uploaded);
  }

  /** Runs `queueSize` senders over the parts still missing; the first final failure stops the others at once. */
  async #sendParts(signal: AbortSignal): Promise<void> {
    const missing = this.#parts.filter((part) => !part.etag);
    let next = 0;
    const sender = async () => {
      while (next < missing.length) {
        if (signal.aborted) throw createAbortError();
        await this.#sendPart(missing[next++]!, signal);
      }
    };
    const senders = Array.from({ length: Math.min(this.#input.queueSize, missing.length) }, sender);
    try {
      await Promise.all(senders);
    } catch (error) {
      this.#run.abort();
      throw error;
    }
  }

  /** Sends one part, with its retries; stores its ETag. */
  async #sendPart(part: Part, signal: AbortSignal): Promise<void> {
    this.#inFlight.add(part);
    try {
      part.etag = await this.#sendWithRetries(part, signal);
    } finally {
      this.#inFlight.delete(part);
      part.sent = 0;
    }
    this.#storedBytes += part.end - part.start;
    this.#signed.delete(part.partNumber);
    this.#report();
    this.#input.onPartStored?.({ partNumber: part.partNumber, etag: part.etag });
  }

  /**
   * Signs and PUTs the part through the send loop until storage answers it with an ETag, or its retries are
   * spent. Its bytes count while in flight, and leave the progress when an attempt fails or is cancelled.
   * @returns the ETag.
   */
  #sendWithRetries(part: Part, signal: AbortSignal): Promise<string> {
    const { backend, retry, file } = this.#input;
    return sendLoop(
      {
        sign: async (fresh) => {
          if (fresh) this.#signed.delete(part.partNumber);
          const checksum: Record<string, string> = {};
          if (this.#input.checksum === 'md5') {
            const { contentMd5 } = await import('./checksum');
            checksum['Content-MD5'] = contentMd5(await this.#md5(part));
          }
          const request = await this.#signedRequest(part.partNumber, signal, checksum);
          return { ...request, headers: { ...request.headers, ...checksum } };
        },
        send: async (request) => {
          const onProgress = (sent: number) => {
            part.sent = sent;
            this.#report();
          };
          // A `Blob.slice()`, read from disk by the browser as it sends.
          const answer = await putBody(request, file.slice(part.start, part.end), signal, onProgress, backend.recoveryFor);
          const etag = etagIn(answer.headers);
          if (!etag) throw new UploadClientError('MISSING_ETAG', missingEtagMessage(part.partNumber), { status: answer.status });
          return etag;
        },
        lost: () => {
          part.sent = 0;
          this.#report();
        },
      },
      { ...retry, signal },
    );
  }

  /**
   * The signed request of a part: made before (and still valid), or signed now together with the next
   * unsigned missing parts, up to the backend's batch size; `headers` (its `Content-MD5`) signed with it
   * where the backend signs headers.
   */
  async #signedRequest(partNumber: number, signal: AbortSignal, headers: Record<string, string>): Promise<SignedPartRequest> {
    const cached = this.#signed.get(partNumber);
    const request = await (cached ?? this.#signBatch(partNumber, signal, headers));
    if (request.expiresAt > Date.now()) return request;
    this.#signed.delete(partNumber);
    return this.#signBatch(partNumber, signal, headers);
  }

  /** Signs part `first` (with `headers`, its checksum) and the next unsigned missing parts. */
  #signBatch(first: number, signal: AbortSignal, headers: Record<string, string>): Promise<SignedPartRequest> {
    const { backend } = this.#input;
    const numbers = [first];
    for (const part of this.#parts) {
      if (numbers.length >= backend.signBatchSize) break;
      if (part.partNumber > first && !part.etag && !this.#signed.has(part.partNumber)) numbers.push(part.partNumber);
    }
    const batch = backend.signParts(numbers, signal, { [first]: headers }).then((requests) => {
      if (!this.#firstSigned && requests[0]) {
        this.#firstSigned = true;
        this.#input.onFirstSigned?.(requests[0]);
      }
      return requests;
    });
    for (const partNumber of numbers) {
      const request = batch.then((requests) => {
        const found = requests.find((signed) => signed.partNumber === partNumber);
        if (!found) throw new UploadClientError('INVALID_PREPARE_RESPONSE', `Part ${partNumber} was not signed.`);
        return found;
      });
      // A failed batch is forgotten, so that the next attempt signs again; unused ones fail silently.
      request.catch(() => {
        if (this.#signed.get(partNumber) === request) this.#signed.delete(partNumber);
      });
      this.#signed.set(partNumber, request);
    }
    return this.#signed.get(first)!;
  }
}

/** Resolves at once when not paused, else when resumed; rejects with `AbortError` when `signal` aborts. */
function waitWhilePaused(pauseController: PauseController | undefined, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(createAbortError());
  if (!pauseController?.paused) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const stopPause = pauseController.subscribe(() => {
      if (pauseController.paused) return;
      stopCancel();
      stopPause();
      resolve();
    });
    const stopCancel = onAbort(signal, () => {
      stopPause();
      reject(createAbortError());
    });
  });
}
