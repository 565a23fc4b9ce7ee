/**
 * @module
 * A fault-injecting HTTP proxy for the retry tests: it sits between the browser and an S3-compatible
 * server on 127.0.0.1 and, on a seeded share of requests (or on request), resets connections mid-body,
 * answers 500, 503 (with or without Retry-After) or S3 `SlowDown`, delays, drops the `ETag` header, or
 * truncates storage's answer. It keeps CORS working, counts what it injected per kind, counts the retries
 * it saw, and tracks multipart uploads to count the orphans a server without ListMultipartUploads hides.
 */
export { startFaultProxy, type FaultProxy, type FaultProxyOptions, type LoggedRequest } from './fault-proxy';
export { FAULT_KINDS, MAX_DELAY_MS, type Fault, type FaultKind } from './faults';
export type { MultipartCounts } from './multipart-ledger';
export { describeRequest, type S3Operation, type S3Request } from './s3-request';
export { seededRandom } from './seeded-random';
