/** The faults the proxy can inject, and the answers it makes up for those that answer in storage's place. */

/**
 * What the proxy can do to one request:
 * - `reset`: forwards half of the request body (all of a small one), then destroys both connections: the
 *   browser sees the connection reset, storage an unfinished request;
 * - `error-500`: answers 500 `InternalError` (S3 XML) without forwarding;
 * - `error-503`: answers 503 `ServiceUnavailable` without `Retry-After`;
 * - `error-503-retry-after`: answers 503 `ServiceUnavailable` with `Retry-After`;
 * - `slow-down`: answers 503 `SlowDown`, S3's throttling answer;
 * - `delay`: holds the request, then forwards it;
 * - `drop-etag`: forwards, and removes the `ETag` header from storage's answer;
 * - `truncate`: forwards, and cuts storage's answer after its headers and half its body: storage did the
 *   work, the browser sees a broken answer (the ambiguous case a retry must cope with);
 * - `no-cors`: answers 503 without CORS headers: the browser cannot read it and sees a network error;
 * - `flip-byte`: forwards, with the first byte of the request body inverted (the bytes changed on the way
 *   that a checksum exists to catch). Never drawn at random ({@link FAULT_KINDS}): without a checksum it
 *   would store a corrupted object; inject it.
 * The made-up answers carry the CORS headers storage sends, except `no-cors`.
 */
export type FaultKind =
  | 'reset'
  | 'error-500'
  | 'error-503'
  | 'error-503-retry-after'
  | 'slow-down'
  | 'delay'
  | 'drop-etag'
  | 'truncate'
  | 'no-cors'
  | 'flip-byte';

/** Every kind drawn at random (`flip-byte` excepted), in a fixed order (the seeded draw picks by index). */
export const FAULT_KINDS: readonly FaultKind[] = [
  'reset',
  'error-500',
  'error-503',
  'error-503-retry-after',
  'slow-down',
  'delay',
  'drop-etag',
  'truncate',
  'no-cors',
];

/** One fault to inject, with its parameters. */
export interface Fault {
  kind: FaultKind;
  /** `delay`: how long to hold the request, in milliseconds; capped at {@link MAX_DELAY_MS}. */
  delayMs?: number;
  /** `error-503-retry-after`: the `Retry-After` value sent, seconds or an HTTP date. @default '1' */
  retryAfter?: string;
}

/** Longest `delay` fault, in milliseconds: a test must stay bounded in time. */
export const MAX_DELAY_MS = 10_000;

/** A made-up storage answer. */
export interface FaultAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Whether to send the CORS headers storage would send (not for `no-cors`). */
  cors: boolean;
}

function s3Error(code: string, message: string, requestId: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<Error><Code>${code}</Code><Message>${message}</Message><RequestId>${requestId}</RequestId></Error>`
  );
}

/** The answer of a fault that answers in storage's place; `undefined` for the kinds that forward. */
export function faultAnswer(fault: Fault, requestId: string): FaultAnswer | undefined {
  const xml = { 'Content-Type': 'application/xml', 'x-amz-request-id': requestId };
  switch (fault.kind) {
    case 'error-500':
      return { status: 500, headers: xml, body: s3Error('InternalError', 'We encountered an internal error. Please try again.', requestId), cors: true };
    case 'error-503':
      return { status: 503, headers: xml, body: s3Error('ServiceUnavailable', 'Please reduce your request rate.', requestId), cors: true };
    case 'error-503-retry-after':
      return {
        status: 503,
        headers: { ...xml, 'Retry-After': fault.retryAfter ?? '1' },
        body: s3Error('ServiceUnavailable', 'Please reduce your request rate.', requestId),
        cors: true,
      };
    case 'slow-down':
      return { status: 503, headers: xml, body: s3Error('SlowDown', 'Please reduce your request rate.', requestId), cors: true };
    case 'no-cors':
      return { status: 503, headers: xml, body: s3Error('ServiceUnavailable', 'Please reduce your request rate.', requestId), cors: false };
    default:
      return undefined;
  }
}
