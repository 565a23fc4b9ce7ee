const NAME = 'HttpFailure';

/**
 * What an HTTP answer said when it refused a request: the `cause` of an `UploadClientError`
 * `STORAGE_ERROR` or `PREPARE_FAILED`. The retry policy reads it (status, S3 code, Retry-After).
 */
export class HttpFailure extends Error {
  override readonly name = NAME;
  /** HTTP status of the answer. */
  readonly status: number;
  /** S3 error `<Code>` (e.g. `SlowDown`, `AccessDenied`), when storage sent one. */
  readonly code: string | undefined;
  /**
   * The answer's `Retry-After` header as sent (seconds or an HTTP date), when the browser could read it:
   * from storage on another origin, only if the bucket's CORS rule exposes it (`ExposeHeaders`).
   */
  readonly retryAfter: string | undefined;

  /** @param message - S3 `<Message>`, or the endpoint's `error` text, or a summary. */
  constructor(message: string, details: { status: number; code?: string | undefined; retryAfter?: string | undefined }) {
    super(message);
    this.status = details.status;
    this.code = details.code;
    this.retryAfter = details.retryAfter;
  }
}

/** True for an {@link HttpFailure} (checks `name`, so it works across bundle chunks). */
export function isHttpFailure(value: unknown): value is HttpFailure {
  return value instanceof Error && value.name === NAME;
}

/** Reads `<Code>` and `<Message>` of an S3 XML error body, e.g. `AccessDenied` / `Request has expired`. */
export function parseS3Error(text: string): { code: string | undefined; message: string | undefined } {
  return {
    code: /<Code>([^<]{1,100})<\/Code>/.exec(text)?.[1],
    message: /<Message>([^<]{0,500})<\/Message>/.exec(text)?.[1],
  };
}

/**
 * The `Retry-After` value in a raw header block (`XMLHttpRequest.getAllResponseHeaders()`), which lists
 * only the headers the browser may show the page. Reading the block instead of `getResponseHeader` keeps
 * the browser from logging "Refused to get unsafe header" when the bucket does not expose it.
 */
export function retryAfterIn(rawHeaders: string): string | undefined {
  return /^retry-after:[ \t]*([^\r\n]*)/im.exec(rawHeaders)?.[1]?.trim() || undefined;
}
