/** Where a stored object is addressed. */
export interface ObjectLocation {
  bucket: string;
  key: string;
  region: string;
  /** Custom S3-compatible endpoint; AWS S3 when unset. */
  endpoint?: string | undefined;
  /** `{endpoint}/{bucket}/{key}` instead of `{bucket}.{endpoint host}/{key}`. */
  forcePathStyle?: boolean | undefined;
}

/** RFC 3986 encoding of one path segment, as S3 and the AWS SDK write keys in URLs (`!'()*` too). */
function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** An object key as the path of its URL: each `/` segment percent-encoded ({@link encodeSegment}). */
export const keyPath = (key: string): string => key.split('/').map(encodeSegment).join('/');

/**
 * The address of a stored object (SPEC 7.4): `https://{bucket}.s3.{region}.amazonaws.com/{key}` on AWS
 * (`.amazonaws.com.cn` in China regions); with an endpoint, `{endpoint}/{bucket}/{key}` when
 * `forcePathStyle`, else `{scheme}://{bucket}.{endpoint host}/{key}`. Each key segment is percent-encoded.
 */
export function objectUrl(location: ObjectLocation): string {
  const path = keyPath(location.key);
  if (!location.endpoint) {
    const domain = location.region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com';
    return `https://${location.bucket}.s3.${location.region}.${domain}/${path}`;
  }
  const endpoint = new URL(location.endpoint);
  const base = endpoint.pathname.replace(/\/+$/, '');
  return location.forcePathStyle
    ? `${endpoint.origin}${base}/${location.bucket}/${path}`
    : `${endpoint.protocol}//${location.bucket}.${endpoint.host}${base}/${path}`;
}
