import { UploadError } from './errors';
import { parseMediaType } from './media-type';

/** What the endpoint lets through: declared content types and sizes. */
export interface UploadPolicySettings {
  /**
   * Content types a file may declare, e.g. `['image/*', 'application/pdf']`. `type/*` matches every
   * subtype; matching ignores case and parameters (`; charset=...`). Unset: any type.
   */
  allowedContentTypes?: string[];
  /**
   * Largest file accepted, in bytes. The browser must then declare `filesize`; the presigned strategy
   * signs it as Content-Length, so storage refuses a PUT of any other size (403).
   */
  maxFileSize?: number;
}

/**
 * Content types a browser runs when the object is opened from the bucket's origin (HTML, XML of any kind:
 * `+xml` types such as SVG and XHTML run the scripts of their XHTML elements, XSLT, JavaScript): stored with
 * `Content-Disposition: attachment` unless the app sets a disposition, so an upload cannot become stored XSS
 * on the bucket's domain.
 */
const ACTIVE_CONTENT =
  /^(text\/html|text\/xml|application\/xml|[^/]+\/[^/]+\+xml|text\/xsl|text\/javascript|application\/javascript|application\/x-javascript|application\/ecmascript|text\/ecmascript)$/;

/**
 * The type without parameters, lower-cased: `Text/HTML; charset=utf-8` -> `text/html`. Text that is not one
 * media type (RFC 9110; see `media-type.ts`) has no essence: it matches no rule and is active content.
 */
export function essence(contentType: string): string | undefined {
  return parseMediaType(contentType)?.essence;
}

/** Rules of `allowedContentTypes` are patterns such as `image/*` (or the any-type pattern), read as lower-case text before any `;`. */
function patternEssence(pattern: string): string {
  return pattern.split(';')[0]!.trim().toLowerCase();
}

function matches(pattern: string, type: string | undefined): boolean {
  if (type === undefined) return false;
  const wanted = patternEssence(pattern);
  if (wanted === '*/*' || wanted === '*') return true;
  return wanted.endsWith('/*') ? type.startsWith(wanted.slice(0, -1)) : type === wanted;
}

/**
 * Refuses what the settings do not allow.
 * @throws {@link UploadError} `FILE_TYPE_NOT_ALLOWED` (400) naming the allowed types; `INVALID_REQUEST` (400)
 *   when a size limit is set and `filesize` is missing; `FILE_TOO_LARGE` (413) over `maxFileSize` bytes.
 */
export function checkUploadPolicy(
  policy: UploadPolicySettings,
  declared: { filetype: string; filesize?: number | undefined },
): void {
  const type = essence(declared.filetype);
  if (policy.allowedContentTypes && !policy.allowedContentTypes.some((pattern) => matches(pattern, type))) {
    throw new UploadError(
      'FILE_TYPE_NOT_ALLOWED',
      `Files of type "${type ?? declared.filetype}" are not allowed; allowed: ${policy.allowedContentTypes.join(', ')}.`,
    );
  }
  if (policy.maxFileSize !== undefined) {
    if (declared.filesize === undefined) {
      throw new UploadError('INVALID_REQUEST', '"filesize" (bytes) is required: this endpoint limits the file size.');
    }
    if (declared.filesize > policy.maxFileSize) {
      throw new UploadError(
        'FILE_TOO_LARGE',
        `File is ${declared.filesize} bytes; the largest accepted is ${policy.maxFileSize} bytes.`,
      );
    }
  }
}

/** `attachment` for active content (see {@link ACTIVE_CONTENT}), else undefined. */
export function defaultContentDisposition(filetype: string): string | undefined {
  const type = essence(filetype);
  return type === undefined || ACTIVE_CONTENT.test(type) ? 'attachment' : undefined;
}

/**
 * The refusal of an object already stored, found at completion (HEAD): over `maxFileSize`, or of a content
 * type `allowedContentTypes` does not list (the temporary-token strategy cannot bind either to credentials).
 * The caller deletes the object. @returns `FILE_TOO_LARGE` (413) or `UNSUPPORTED_MEDIA_TYPE` (415), our own
 * text; undefined when the object is allowed.
 */
export function checkStoredObject(policy: UploadPolicySettings, stored: { size: number; contentType: string }): UploadError | undefined {
  if (policy.maxFileSize !== undefined && stored.size > policy.maxFileSize) {
    return new UploadError('FILE_TOO_LARGE', `File is ${stored.size} bytes; the largest accepted is ${policy.maxFileSize} bytes. It was deleted.`);
  }
  const type = essence(stored.contentType);
  // A stored type that is not one media type (`image/png;x=1,text/html`: a browser takes the last of the
  // list) is refused whatever the rules: no check can tell what it will run as.
  if (type === undefined) {
    return new UploadError(
      'UNSUPPORTED_MEDIA_TYPE',
      'Stored file has a content type that is not one media type (RFC 9110). It was deleted.',
    );
  }
  if (policy.allowedContentTypes && !policy.allowedContentTypes.some((pattern) => matches(pattern, type))) {
    return new UploadError(
      'UNSUPPORTED_MEDIA_TYPE',
      `Stored file has type "${type}"; allowed: ${policy.allowedContentTypes.join(', ')}. It was deleted.`,
    );
  }
  return undefined;
}
