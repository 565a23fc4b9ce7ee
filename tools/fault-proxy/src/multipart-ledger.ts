/**
 * Which multipart uploads storage created, completed and aborted, as seen on the wire: the orphan count
 * on a server without ListMultipartUploads (s3rver). An orphan is an upload id that storage created
 * (CreateMultipartUpload answered 2xx) and that no CompleteMultipartUpload or AbortMultipartUpload closed
 * with a 2xx answer: its parts stay on storage (billed, invisible) until a lifecycle rule removes them.
 */
import type { S3Request } from './s3-request';

/** What the ledger holds; upload ids in the order seen. */
export interface MultipartCounts {
  created: string[];
  completed: string[];
  aborted: string[];
  /** Created, and neither completed nor aborted. */
  orphans: string[];
}

/** At most this many upload ids are kept: the proxy stays bounded in memory. */
const MAX_UPLOADS = 100_000;

export class MultipartLedger {
  readonly #created = new Set<string>();
  readonly #completed = new Set<string>();
  readonly #aborted = new Set<string>();

  /** Whether storage's answer to this request must be read (its body holds the upload id or an error). */
  static wantsBody(request: S3Request): boolean {
    return request.operation === 'CreateMultipartUpload' || request.operation === 'CompleteMultipartUpload';
  }

  /** Records storage's answer (status, and the first bytes of the body when {@link wantsBody}). */
  observe(request: S3Request, status: number, body: string): void {
    if (status < 200 || status > 299 || this.#created.size >= MAX_UPLOADS) return;
    switch (request.operation) {
      case 'CreateMultipartUpload': {
        const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(body)?.[1];
        if (uploadId) this.#created.add(uploadId);
        break;
      }
      case 'CompleteMultipartUpload':
        // S3 may answer 200 with an <Error> body when completion fails after the headers went out.
        if (request.uploadId && !/<Error>/.test(body)) this.#completed.add(request.uploadId);
        break;
      case 'AbortMultipartUpload':
        if (request.uploadId) this.#aborted.add(request.uploadId);
        break;
      default:
    }
  }

  counts(): MultipartCounts {
    const created = [...this.#created];
    return {
      created,
      completed: [...this.#completed],
      aborted: [...this.#aborted],
      orphans: created.filter((id) => !this.#completed.has(id) && !this.#aborted.has(id)),
    };
  }

  clear(): void {
    this.#created.clear();
    this.#completed.clear();
    this.#aborted.clear();
  }
}
