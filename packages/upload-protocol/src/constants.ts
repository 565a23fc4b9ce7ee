/**
 * Default path of the preparation endpoint that the browser POSTs to.
 * @default '/api/s3-upload'
 */
export const DEFAULT_UPLOAD_ENDPOINT = '/api/s3-upload';

/**
 * Cache-Control stored with every uploaded object: 20 years (630720000 seconds). The presigned strategy
 * signs this header, so the browser must send exactly this value.
 */
export const OBJECT_CACHE_CONTROL = 'max-age=630720000';

/**
 * Content type used when the browser does not know the file's type (`File.type === ''`), on both sides,
 * so that the signed Content-Type and the sent one match.
 */
export const FALLBACK_CONTENT_TYPE = 'application/octet-stream';

/** The two ways the endpoint can prepare an upload. */
export const UPLOAD_STRATEGIES = ['presigned', 'temporary-token'] as const;

/** Body of every answer the endpoint gives to an unexpected failure (HTTP 500). */
export const INTERNAL_ERROR_BODY = { error: 'Internal Server Error' } as const;
