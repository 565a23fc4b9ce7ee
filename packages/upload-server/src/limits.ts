/**
 * The request body limits, in a module of their own with no imports: the handler (`request-body.ts`) and
 * the node adapter (`adapters/node/request.ts`) both read them, and the build puts this module in a chunk
 * that both entries import (one copy).
 */

/** Largest request body the endpoint accepts, in bytes (16 KiB): a file name, a type and a few fields. */
export const MAX_BODY_BYTES = 16 * 1024;

/**
 * Largest body of a multipart `complete`, in bytes (1 MiB), the one request that may exceed the 16 KiB of
 * every other body: it lists every part's number and ETag, ~66 bytes a part as JSON with S3's
 * 34-character ETags, so 10000 parts take ~660 KB. The endpoint reads past 16 KiB only when those first
 * 16 KiB carry a valid multipart ticket, and answers 413 at once otherwise, before any parsing; after
 * parsing, a body over 16 KiB that is not a multipart `complete` is refused too.
 */
export const MAX_COMPLETE_BODY_BYTES = 1024 * 1024;
