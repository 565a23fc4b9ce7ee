/**
 * Default path of the preparation endpoint that the browser POSTs to.
 * @default '/api/s3-upload'
 */
export const DEFAULT_UPLOAD_ENDPOINT = '/api/s3-upload';

/**
 * Cache-Control stored with every object of the presigned strategy (single PUT and multipart): 20 years
 * (630720000 seconds). The server signs this header, so the browser must send exactly this value.
 */
export const OBJECT_CACHE_CONTROL = 'max-age=630720000';

/**
 * Cache-Control stored with every object of the temporary-token strategy (SPEC 9): 20 years, and `public`
 * (shared caches may keep it). The browser signs its own
 * requests with the token, so this value is the client's to send; it is defined here, once, beside
 * {@link OBJECT_CACHE_CONTROL}.
 */
export const TOKEN_OBJECT_CACHE_CONTROL = 'max-age=630720000, public';

/**
 * Content type used when the browser does not know the file's type (`File.type === ''`), on both sides,
 * so that the signed Content-Type and the sent one match.
 */
export const FALLBACK_CONTENT_TYPE = 'application/octet-stream';

/**
 * The ways the endpoint can prepare an upload: a presigned PUT URL (and presigned multipart upload), temporary
 * credentials for one object key, or a presigned POST form (S3 POST Object with a signed policy document: one
 * object of at most `MAX_SINGLE_PUT_SIZE` (5 GiB), whose size range and content type storage itself enforces).
 */
export const UPLOAD_STRATEGIES = ['presigned', 'temporary-token', 'presigned-post'] as const;

/**
 * The words of the refusal of a file over 5 GiB (`MAX_SINGLE_PUT_SIZE`, 5368709120 bytes) on the presigned-post
 * strategy: the server's 400 `FILE_TOO_LARGE_FOR_POST` and the client's refusal before any request say the same.
 */
export const POST_TOO_LARGE_MESSAGE =
  'A presigned POST stores one object of at most 5368709120 bytes (5 GiB) and has no multipart: upload larger files with the presigned or temporary-token strategy.';

/** Body of every answer the endpoint gives to an unexpected failure (HTTP 500). */
export const INTERNAL_ERROR_BODY = { error: 'Internal Server Error' } as const;
