import type { UploadRequestBody } from '@upbeam/upload-protocol';
import { UploadError } from '../errors';
import type { RouteConfig } from '../config';
import { assertValidObjectKey, defaultObjectKey } from '../object-key';
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
}

/** The fields every preparation answer starts with. */
export function baseAnswer(settings: ResolvedStorageSettings, key: string) {
  return {
    key,
    bucket: settings.bucket,
    region: settings.region,
    ...(settings.endpoint === undefined ? {} : { endpoint: settings.endpoint }),
    // The browser sends a Content-MD5 with each PUT when asked (storage verifies it: `checksum` setting).
    ...(settings.checksum === undefined ? {} : { checksum: settings.checksum }),
  };
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

/** The object a new upload will store: authorized and checked ({@link authorize}), then its key chosen. */
export async function decideObject(route: RouteContext, body: UploadRequestBody, source: RequestSource): Promise<DecidedObject> {
  const { config, services } = route;
  const decided = await authorize(route, body, source);
  const key = decided?.key ?? (config.key ? await config.key(body, source.request) : defaultObjectKey(body.filename, services.keyPrefix));
  assertValidObjectKey(key, services.keyPrefix);
  if (key.startsWith(INTERNAL_PREFIX)) {
    throw new UploadError('INVALID_OBJECT_KEY', `Object keys under "${INTERNAL_PREFIX}" hold the handler's completion markers and upload records.`);
  }
  const contentDisposition = decided?.contentDisposition ?? defaultContentDisposition(body.filetype);
  const subject = subjectOf(decided) ?? source.remoteAddress;
  return { key, contentDisposition, metadata: decided?.metadata, context: carriedContext(route, decided), subject, filesize: body.filesize };
}
