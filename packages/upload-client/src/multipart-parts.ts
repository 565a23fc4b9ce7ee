/**
 * The parts of one multipart upload, for the `MultipartUpload` that owns it (`multipart-upload.ts`): which
 * are stored, sending the missing ones `queueSize` at once, their progress, and their signatures. Each part is a
 * `Blob.slice()` sent with `XMLHttpRequest`: the browser reads it from disk as it sends, no byte of the file
 * passes through JavaScript memory. With a checksum each part is hashed before it is signed
 * (`checksum-parts.ts`; the next parts while parts are in flight) and sent with its checksum header, signed
 * into its request (the presigned URL, or the token session's signature), which storage verifies.
 *
 * When a part is stored, its sender sends the next part at once, in the task of the stored part's answer;
 * what the stored part changes (progress, the resume journal) waits for a new task. The answer's task then
 * holds only the work that keeps the connection busy, and the next part's request is signed before a
 * sender needs it (the part timelines before and after: bench/notes/part-scheduling.md).
 */
import { CHECKSUM_HEADERS, type ChecksumAlgorithm, type CompletedPart, type ObjectChecksum } from '@upbeam/upload-protocol';
import { createAbortError } from './abort';
import type { PartChecksums } from './checksum-parts';
import { CHECKSUM_REFUSALS } from './checksum-refusal';
import { UploadClientError } from './errors';
import type { MultipartBackend, SignedPartRequest } from './multipart-backend';
import { nextTask } from './next-task';
import { partRanges, type PartRange } from './part-math';
import { addMissingHeaders, putBody } from './put-object';
import type { RetrySettings } from './retry';
import { etagIn } from './s3-answer';
import { sendLoop } from './send-loop';

/** The parts of one multipart upload, its upload id already on storage. */
export interface MultipartPartsInput {
  file: Blob;
  /** Size of every part but the last, in bytes. */
  partSize: number;
  /** Parts sent at once. */
  queueSize: number;
  /** Parts already on storage (a resumed upload): not sent again. */
  completed: readonly CompletedPart[];
  /** Parts signed before the engine starts (with the upload's creation): used until they expire. Not told to `onFirstSigned`. */
  signed?: readonly SignedPartRequest[] | undefined;
  backend: MultipartBackend;
  /** `maxAttempts` per part, `onRetry`. */
  retry: RetrySettings;
  /** The checksum each part carries (`CHECKSUM_HEADERS[checksum]`, signed with the part); unset: none. */
  checksum?: ChecksumAlgorithm | undefined;
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
 * Sends the parts a multipart upload lacks, `queueSize` at once ({@link MultipartParts.send}).
 * - Each part is retried on its own (backoff with jitter, `Retry-After`), and signed again when its
 *   signature expired; an answer without a readable `ETag` fails with `MISSING_ETAG` after the retries.
 * - Progress is the sum of the parts' upload events: bytes of stored parts plus bytes in flight.
 * The `MultipartUpload` that owns them pauses, cancels, completes, and decides what happens on storage after
 * a failure or a cancel (abort, or keep for resume).
 */
export class MultipartParts {
  readonly #input: MultipartPartsInput;
  readonly #parts: Part[];
  /** Signed requests by part number, made or being made. */
  readonly #signed = new Map<number, Promise<SignedPartRequest>>();
  /** Bytes of the stored parts; with the parts in flight, the progress (kept as sums: 10000 parts is O(1)). */
  #storedBytes = 0;
  readonly #inFlight = new Set<Part>();
  /** Parts stored whose progress and journal entry wait for the next task ({@link MultipartParts.#settle}). */
  readonly #justStored: Part[] = [];
  /** The parts' checksums (with `checksum`), loaded on first use; replaced when storage refused one (hashed again). */
  #checksums: Promise<PartChecksums> | undefined;
  /** The checksum header of each part hashed so far, by part number: the parts a batch may sign beside the one asked. */
  readonly #hashed = new Map<number, Record<string, string>>();
  #firstSigned = false;

  constructor(input: MultipartPartsInput) {
    this.#input = input;
    const stored = new Map(input.completed.map((part) => [part.partNumber, part.etag]));
    this.#parts = partRanges(input.file.size, input.partSize).map((range) => {
      const etag = stored.get(range.partNumber);
      if (etag) this.#storedBytes += range.end - range.start;
      return { ...range, sent: 0, ...(etag && { etag }) };
    });
    for (const request of input.signed ?? []) this.#signed.set(request.partNumber, Promise.resolve(request));
  }

  /**
   * The object's checksum with `checksum` (`composite`, or CRC-64/NVME's `full-object`; parts stored before a
   * resume are hashed too), else `undefined`.
   */
  async checksum(): Promise<ObjectChecksum | undefined> {
    return this.#input.checksum ? (await this.#partChecksums()).objectChecksum() : undefined;
  }

  /**
   * Every part with its ETag, in order (once all are stored), and its checksum (base64) with a checksum other
   * than MD5 (CompleteMultipartUpload lists it; parts stored before a resume are hashed for it).
   */
  async completed(): Promise<CompletedPart[]> {
    const { checksum } = this.#input;
    const listed = checksum && checksum !== 'md5' ? await this.#partChecksums() : undefined;
    return Promise.all(
      this.#parts.map(async ({ partNumber, etag }) => ({
        partNumber,
        etag: etag!,
        ...(listed && { checksum: await listed.partChecksum(partNumber) }),
      })),
    );
  }

  /** The parts' checksums, loaded (with the hasher) on first use. */
  #partChecksums(): Promise<PartChecksums> {
    const { file, queueSize, checksum } = this.#input;
    return (this.#checksums ??= import('./checksum-parts').then(({ PartChecksums }) => new PartChecksums(file, this.#parts, queueSize, checksum)));
  }

  /** The checksum header of a part (none without `checksum`), hashed first: `rehash` drops every digest kept. */
  async #checksumHeader(partNumber: number, rehash: boolean): Promise<Record<string, string>> {
    const { checksum } = this.#input;
    if (!checksum) return {};
    if (rehash) {
      this.#checksums = undefined;
      this.#hashed.clear();
    }
    const kept = this.#partChecksums();
    const checksums = await kept;
    // Content-MD5 as RFC 1864 spells it (the token session signs it so); `x-amz-checksum-*` in lower case.
    const name = checksum === 'md5' ? 'Content-MD5' : CHECKSUM_HEADERS[checksum];
    // The parts hashed ahead of this one become signable in the batches of those before them as they are hashed.
    for (let ahead = partNumber + 1; ahead <= Math.min(partNumber + this.#input.queueSize, this.#parts.length); ahead++) {
      if (this.#hashed.has(ahead)) continue;
      checksums.partChecksum(ahead).then(
        (value) => this.#checksums === kept && this.#hashed.set(ahead, { [name]: value }),
        () => {},
      );
    }
    const header = { [name]: await checksums.partChecksum(partNumber) };
    this.#hashed.set(partNumber, header);
    return header;
  }

  /** A part's checksum header when a batch may sign it now: `{}` without `checksum`, `undefined` while not hashed. */
  #readyHeader(partNumber: number): Record<string, string> | undefined {
    return this.#input.checksum ? this.#hashed.get(partNumber) : {};
  }

  /** Reports the bytes of the stored parts and of the parts in flight. */
  report(): void {
    let uploaded = this.#storedBytes;
    for (const part of this.#inFlight) uploaded += part.sent;
    this.#input.onProgress(uploaded);
  }

  /**
   * Runs `queueSize` senders over the parts still missing, until `run` aborts (a cancel, a pause); the first
   * final failure aborts `run`, which stops the others at once. Every part stored by then is settled (progress,
   * journal) before it returns or throws.
   */
  async send(run: AbortController): Promise<void> {
    const { signal } = run;
    const missing = this.#parts.filter((part) => !part.etag);
    let next = 0;
    const sender = async () => {
      while (next < missing.length) {
        if (signal.aborted) throw createAbortError();
        const part = missing[next++]!;
        await this.#sendPart(part, signal);
        // The next part first, in this task; the stored part's bookkeeping in the next one.
        this.#justStored.push(part);
        if (this.#justStored.length === 1) void nextTask().then(() => this.#settle());
      }
    };
    const senders = Array.from({ length: Math.min(this.#input.queueSize, missing.length) }, sender);
    try {
      await Promise.all(senders);
    } catch (error) {
      run.abort();
      throw error;
    } finally {
      this.#settle();
    }
  }

  /**
   * Sends one part, with its retries; keeps its ETag. Its bytes stay in flight (they count as uploaded)
   * until {@link MultipartParts.#settle} counts them as stored.
   */
  async #sendPart(part: Part, signal: AbortSignal): Promise<void> {
    this.#inFlight.add(part);
    try {
      part.etag = await this.#sendWithRetries(part, signal);
    } catch (error) {
      this.#inFlight.delete(part);
      part.sent = 0;
      throw error;
    }
  }

  /** Counts the parts stored since the last call as stored: one progress report, then their journal entries. */
  #settle(): void {
    const stored = this.#justStored.splice(0);
    if (stored.length === 0) return;
    for (const part of stored) {
      this.#inFlight.delete(part);
      part.sent = 0;
      this.#storedBytes += part.end - part.start;
      this.#signed.delete(part.partNumber);
    }
    this.report();
    for (const { partNumber, etag } of stored) this.#input.onPartStored?.({ partNumber, etag: etag! });
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
        checksums: CHECKSUM_REFUSALS,
        sign: async (fresh, rehash) => {
          // What made this signature fail (an expired URL, a corrected clock, renewed credentials, a refused
          // checksum) fails the ones signed with it for later parts too.
          if (fresh) this.#signed.clear();
          const checksum = await this.#checksumHeader(part.partNumber, rehash);
          const request = await this.#signedRequest(part.partNumber, signal, checksum);
          this.#signAhead(part.partNumber, signal);
          // Signed by the server into the URL (its headers hold it); added when it predates that (Content-MD5).
          return { ...request, headers: addMissingHeaders(request.headers, checksum) };
        },
        send: async (request) => {
          const onProgress = (sent: number) => {
            part.sent = sent;
            this.report();
          };
          // A `Blob.slice()`, read from disk by the browser as it sends.
          const answer = await putBody(request, file.slice(part.start, part.end), signal, onProgress, backend.recoveryFor);
          const etag = etagIn(answer.headers);
          if (!etag) throw new UploadClientError('MISSING_ETAG', missingEtagMessage(part.partNumber), { status: answer.status });
          return etag;
        },
        lost: () => {
          part.sent = 0;
          this.report();
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

  /**
   * Signs ahead of the senders, so that none waits for a signature when it takes its next part:
   * - a backend that signs in batches (presigned: one request per 100 parts) signs the next batch once the
   *   parts signed ahead of `partNumber` are fewer than half a batch;
   * - a backend that signs one part at a time (the token session, locally) signs the next unsigned part
   *   within `queueSize` of `partNumber`: one part ahead per sender.
   * With a checksum, a part is signed with its checksum: only parts already hashed (hashed ahead of their
   * senders) are signed ahead.
   */
  #signAhead(partNumber: number, signal: AbortSignal): void {
    const { backend, queueSize } = this.#input;
    const oneAtATime = backend.signBatchSize === 1;
    const window = oneAtATime ? queueSize : Math.floor(backend.signBatchSize / 2);
    // #parts holds every part in part-number order: the parts after `partNumber` start at its index.
    const unsigned = this.#parts
      .slice(partNumber, partNumber + window)
      .find((part) => !part.etag && !this.#signed.has(part.partNumber) && this.#readyHeader(part.partNumber));
    // Its failure is handled where each of its parts is used (signed again then).
    if (unsigned) void this.#signBatch(unsigned.partNumber, signal, this.#readyHeader(unsigned.partNumber)!);
  }

  /** Signs part `first` (with `headers`, its checksum) and the next unsigned missing parts (with a checksum: those hashed). */
  #signBatch(first: number, signal: AbortSignal, headers: Record<string, string>): Promise<SignedPartRequest> {
    const { backend } = this.#input;
    const numbers = [first];
    const partHeaders: Record<number, Record<string, string>> = { [first]: headers };
    for (const part of this.#parts) {
      if (numbers.length >= backend.signBatchSize) break;
      const ready = part.partNumber > first && !part.etag && !this.#signed.has(part.partNumber) && this.#readyHeader(part.partNumber);
      if (!ready) continue;
      numbers.push(part.partNumber);
      partHeaders[part.partNumber] = ready;
    }
    const batch = backend.signParts(numbers, signal, partHeaders).then((requests) => {
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
