import type { ChecksumAlgorithm, ChecksumRequest, UploadRequestBody } from '@upbeam/upload-protocol';
import { UploadError } from '../errors';
import type { RouteConfig } from '../config';
import { assertValidObjectKey, contentObjectKey, defaultObjectKey } from '../object-key';
import { checksumRequired, effectiveChecksum } from '../upload-checksum';
import type { RouteServices } from '../route-services';
import type { ResolvedStorageSettings } from '../settings';
import { INTERNAL_PREFIX } from '../completion-marker';
import type { BeforeUploadContext, BeforeUploadReturn } from '../hooks';
import type { RequestSource } from '../incoming-request';
import { contextText } from '../upload-context';
import { subjectOf } from '../upload-limits';
import { checkUploadPolicy, defaultContentDisposition } from '../upload-policy';

/** What every operation of a route reads: the route's settings (over the shared ones) and its services. */
export interface RouteContext {
  config: RouteConfig;
  services: RouteServices;
}

/** The object a new upload stores: its key, and the headers set with it. */
export interface DecidedObject {
  key: string;
  contentDisposition: string | undefined;
  metadata: Record<string, string> | undefined;
  /** What `onBeforeUpload` returned, as JSON text, for `onUploadComplete` (`upload-context.ts`); only with that hook. */
  context: string | undefined;
  /** Whose limits count it (`limits`): the `subject` `onBeforeUpload` returned, else the client's address, if known. */
  subject?: string | undefined;
  /** The declared size, in bytes (the body's `filesize`): reserved with `limits`. */
  filesize?: number | undefined;
  /**
   * The checksum the upload carries ({@link uploadChecksum}): its algorithm, and the value the request
   * carried (signed into a presigned PUT, bound into the receipt or ticket); undefined: none.
   */
  checksum?: ChecksumRequest | undefined;
}

/**
 * The fields every preparation answer starts with: where the object goes, the checksum the upload carries
 * (`checksum`: its algorithm) and, with `conditionalWrites`, `ifNoneMatch: true` (storage refuses to overwrite).
 */
export function baseAnswer(settings: ResolvedStorageSettings, key: string, checksum: ChecksumAlgorithm | undefined, ifNoneMatch = settings.conditionalWrites) {
  return {
    key,
    bucket: settings.bucket,
    region: settings.region,
    ...(settings.endpoint === undefined ? {} : { endpoint: settings.endpoint }),
    ...(checksum === undefined ? {} : { checksum }),
    ...(ifNoneMatch ? { ifNoneMatch: true as const } : {}),
  };
}

/**
 * The checksum an upload of this route carries: the request's (`_upload.checksum`) where storage verifies its
 * algorithm, else the route's (`effectiveChecksum`). A content-addressed route takes SHA-256 only, and its value
 * (the key is named from it): `{base64}-{N}` for a multipart `create`, a whole-file one otherwise. A request of
 * next-s3-upload's client (which hashes nothing) carries none.
 * @param renewal - A temporary-token renewal: its key is already named, so no value is required.
 * @throws {@link UploadError} `CHECKSUM_UNSUPPORTED` (400) for an algorithm storage does not verify;
 *   `CHECKSUM_REQUIRED` (400, with the algorithm) for a presigned single PUT or a content-addressed preparation
 *   without the value (checked before `onBeforeUpload` runs); `INVALID_CHECKSUM` (400)
 *   for a composite value (`-N`) anywhere but a content-addressed multipart `create`; `INVALID_REQUEST` (400)
 *   for a temporary-token upload to a content-addressed route; `INVALID_SETTINGS` (500,
 *   logged) for a content-addressed route whose storage does not verify SHA-256.
 */
export function uploadChecksum({ config, services }: RouteContext, body: UploadRequestBody, renewal = false): ChecksumRequest | undefined {
  const settings = services.settings();
  const asked = body._upload?.checksum;
  if (asked === undefined && Object.hasOwn(body, '_nextS3')) {
    if (config.contentAddressed) throw new UploadError('INVALID_REQUEST', "next-s3-upload's client hashes nothing: a content-addressed route needs Upbeam's client.");
    return undefined;
  }
  const multipartCreate = body._upload?.multipart?.action === 'create';
  if (!config.contentAddressed) {
    const chosen = effectiveChecksum(settings, asked);
    if (chosen?.value?.includes('-')) {
      throw new UploadError('INVALID_CHECKSUM', 'A multipart checksum ("-{parts}") is taken only by a content-addressed route\'s multipart upload.');
    }
    // A presigned single PUT's checksum is signed into its URL: the value must come with the request.
    const singlePut = body._upload?.strategy === 'presigned' && body._upload.multipart === undefined;
    if (chosen !== undefined && chosen.value === undefined && singlePut) throw checksumRequired(chosen.algorithm);
    return chosen;
  }
  // Credentials cannot bind a checksum: a browser could store other bytes under the key they are named from.
  if (body._upload?.strategy === 'temporary-token') {
    throw new UploadError('INVALID_REQUEST', 'A content-addressed route takes presigned uploads only: its checksum is signed into the upload URL.');
  }
  if (settings.verifiedChecksums !== undefined && !settings.verifiedChecksums.includes('sha256')) {
    throw new UploadError(
      'INVALID_SETTINGS',
      'A content-addressed route needs storage that verifies SHA-256 checksums; this provider verifies ' +
        `${settings.verifiedChecksums.length === 0 ? 'none' : settings.verifiedChecksums.join(', ')}.`,
    );
  }
  const chosen = effectiveChecksum({ checksum: 'sha256', verifiedChecksums: ['sha256'] }, asked)!;
  if (renewal) return chosen;
  if (chosen.value === undefined) throw checksumRequired('sha256');
  if (chosen.value.includes('-') !== multipartCreate) {
    throw new UploadError(
      'INVALID_CHECKSUM',
      multipartCreate
        ? 'A content-addressed multipart upload names its key from its multipart SHA-256 ("{base64}-{parts}").'
        : 'A multipart checksum ("-{parts}") is taken only by a multipart upload.',
    );
  }
  return chosen;
}

/**
 * `onBeforeUpload` (authorization, and what it decides), then the declared type and size are checked. The
 * hook's `request` is read from `source` when the hook reads it: on the node adapter, a hook that never
 * reads it costs no Fetch `Request`.
 * @returns what the hook returned (its decisions and the route's context), undefined for nothing.
 */
export async function authorize({ config }: RouteContext, body: UploadRequestBody, source: RequestSource): Promise<BeforeUploadReturn> {
  const returned = config.onBeforeUpload ? await config.onBeforeUpload(hookContext(body, source)) : undefined;
  checkUploadPolicy(config, body);
  return returned ?? undefined;
}

/** What `onBeforeUpload` gets: `request` is a getter, read from `source` on first use. */
function hookContext(body: UploadRequestBody, source: RequestSource): BeforeUploadContext {
  return {
    body,
    get request() {
      return source.request;
    },
  };
}

/** The route's context to carry to `onUploadComplete` (none without that hook: nothing would read it). */
export function carriedContext({ config }: RouteContext, returned: BeforeUploadReturn): string | undefined {
  return config.onUploadComplete ? contextText(returned) : undefined;
}

/**
 * Writes the upload's record (`upload-record.ts`) when the route has `onUploadComplete`: the completions
 * without a page's receipt (reconcile, storage notifications) read the upload's context from it. `until`:
 * when the upload's receipt or ticket ends, in seconds since the epoch.
 */
export async function recordUpload({ config, services }: RouteContext, object: DecidedObject, until: number): Promise<void> {
  if (config.onUploadComplete) await (await services.records()).write(object.key, until, object.context);
}

/**
 * The object a new upload will store: its checksum decided ({@link uploadChecksum}), authorized and checked
 * ({@link authorize}), then its key chosen (a content-addressed route's from the checksum; else `onBeforeUpload`'s,
 * the route's `key` function's, or the default).
 */
export async function decideObject(route: RouteContext, body: UploadRequestBody, source: RequestSource): Promise<DecidedObject> {
  const { config, services } = route;
  const checksum = uploadChecksum(route, body);
  const decided = await authorize(route, body, source);
  const key = config.contentAddressed ? contentKey(route, decided, checksum!.value!, body.filename) : (decided?.key ?? (config.key ? await config.key(body, source.request) : defaultObjectKey(body.filename, services.keyPrefix)));
  assertValidObjectKey(key, services.keyPrefix);
  if (key.startsWith(INTERNAL_PREFIX)) {
    throw new UploadError('INVALID_OBJECT_KEY', `Object keys under "${INTERNAL_PREFIX}" hold the handler's completion markers and upload records.`);
  }
  const contentDisposition = decided?.contentDisposition ?? defaultContentDisposition(body.filetype);
  const subject = subjectOf(decided) ?? source.remoteAddress;
  return { key, contentDisposition, metadata: decided?.metadata, context: carriedContext(route, decided), subject, filesize: body.filesize, checksum };
}

/**
 * A content-addressed route's key (`contentObjectKey`): the handler's alone.
 * @throws {@link UploadError} `INVALID_SETTINGS` (500, logged) when `onBeforeUpload` returned a `key`.
 */
function contentKey({ services }: RouteContext, decided: BeforeUploadReturn, digest: string, filename: string): string {
  if (decided?.key !== undefined) {
    throw new UploadError('INVALID_SETTINGS', 'onBeforeUpload returned a `key` for a content-addressed route: its keys are named from the bytes\' SHA-256.');
  }
  return contentObjectKey(digest, filename, services.keyPrefix);
}
