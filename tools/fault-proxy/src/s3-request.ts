/** What an S3 request is, read from its method and query, and which requests are retries of one another. */

/** The S3 operations of a browser upload; `Preflight` is the browser's CORS `OPTIONS`. */
export type S3Operation =
  | 'Preflight'
  | 'PutObject'
  | 'UploadPart'
  | 'CreateMultipartUpload'
  | 'CompleteMultipartUpload'
  | 'AbortMultipartUpload'
  | 'Other';

/** One request as the proxy sees it. */
export interface S3Request {
  method: string;
  /** Path, without the query: `/{bucket}/{key}` in path style. */
  path: string;
  query: URLSearchParams;
  operation: S3Operation;
  /**
   * The same for a request and its retries: method, path, and the multipart query (`uploads`, `uploadId`,
   * `partNumber`); not the signature, so a PUT to a re-signed URL of the same key is the same request.
   */
  identity: string;
  /** Multipart upload id, for UploadPart, CompleteMultipartUpload and AbortMultipartUpload. */
  uploadId: string | undefined;
}

function operationOf(method: string, query: URLSearchParams): S3Operation {
  if (method === 'OPTIONS') return 'Preflight';
  const uploadId = query.has('uploadId');
  if (method === 'PUT' && uploadId && query.has('partNumber')) return 'UploadPart';
  // A presigned URL carries X-Amz-*; the SDK adds `x-id=PutObject`; `?tagging`, `?acl` are other operations.
  if (method === 'PUT' && [...query.keys()].every((name) => /^(x-amz-|x-id$)/i.test(name))) return 'PutObject';
  if (method === 'POST' && query.has('uploads')) return 'CreateMultipartUpload';
  if (method === 'POST' && uploadId) return 'CompleteMultipartUpload';
  if (method === 'DELETE' && uploadId) return 'AbortMultipartUpload';
  return 'Other';
}

/** Reads a request line (`method`, `url` as in the request: path and query). */
export function describeRequest(method: string, url: string): S3Request {
  const parsed = new URL(url, 'http://proxy.invalid');
  const { searchParams: query } = parsed;
  const uploadId = query.get('uploadId') ?? undefined;
  const parts = [method, parsed.pathname];
  if (query.has('uploads')) parts.push('uploads');
  if (uploadId !== undefined) parts.push(`uploadId=${uploadId}`);
  if (query.has('partNumber')) parts.push(`partNumber=${query.get('partNumber')}`);
  return { method, path: parsed.pathname, query, operation: operationOf(method, query), identity: parts.join(' '), uploadId };
}
