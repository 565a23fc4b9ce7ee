import type { PresignedUploadResponse, UploadRequestBody } from '@upbeam/upload-protocol';
import { errorToResponse, UploadError } from './errors';
import { defaultObjectKey } from './object-key';
import { createPresigner, PRESIGNED_URL_EXPIRES_IN, type Presigner } from './presign';
import { readUploadRequest } from './request-body';
import { resolveStorageSettings, type ResolvedStorageSettings, type StorageSettings } from './settings';

/** Configuration of {@link createUploadHandler}. Storage settings fall back to `S3_UPLOAD_*` env variables. */
export interface UploadHandlerConfig extends StorageSettings {
  /**
   * Chooses the object key. Gets the checked request body (with the caller's extra fields) and the
   * original Request (for cookies, headers). May be async.
   * @default `next-s3-uploads/{nanoid}/{sanitized filename}`
   */
  key?: (body: UploadRequestBody, request: Request) => string | Promise<string>;
  /**
   * Lifetime of a presigned URL, in seconds.
   * @default 3600
   */
  expiresIn?: number;
  /**
   * Receives every unexpected error (answered with 500 `Internal Server Error`), including storage errors
   * and missing settings.
   * @default console.error
   */
  onError?: (error: unknown) => void;
}

/** A Fetch API handler: works as-is in Next.js App Router, Hono, Bun, Deno and workers. */
export type UploadHandler = (request: Request) => Promise<Response>;

interface Prepared {
  settings: ResolvedStorageSettings;
  presign: Presigner;
}

/**
 * Creates the preparation endpoint (mounted by the app at `/api/s3-upload` by default). For a POST of
 * `{ filename, filetype, _upload: { strategy: 'presigned' } }` it answers
 * `{ key, bucket, region, endpoint?, url }`, where `url` is a PUT URL valid `expiresIn` seconds that
 * binds `Content-Type: filetype` and `Cache-Control: max-age=630720000`.
 *
 * Settings are resolved on the first request, so that a missing variable does not break a build that
 * merely imports the route. Errors: 4xx `{ error, code }` for a wrong request (405, 415, 413, 400);
 * any other failure, including missing settings (`Upbeam: Missing ENVs ...`), is passed to `onError` and
 * answered with 500 `{ error: 'Internal Server Error' }`.
 *
 * @example
 * // app/api/s3-upload/route.ts (Next.js App Router)
 * import { createUploadHandler } from '@upbeam/upload-server';
 * export const POST = createUploadHandler({ bucket: 'my-bucket' }); // the rest from S3_UPLOAD_* env
 */
export function createUploadHandler(config: UploadHandlerConfig = {}): UploadHandler {
  const expiresIn = config.expiresIn ?? PRESIGNED_URL_EXPIRES_IN;
  const log = config.onError ?? ((error: unknown) => console.error('[upbeam] upload preparation failed:', error));
  let prepared: Prepared | undefined;
  const prepare = (): Prepared => {
    if (!prepared) {
      const settings = resolveStorageSettings(config);
      prepared = { settings, presign: createPresigner(settings) };
    }
    return prepared;
  };

  return async (request) => {
    try {
      const body = await readUploadRequest(request);
      const { settings, presign } = prepare();
      if (body._upload.strategy !== 'presigned') {
        throw new UploadError('UNSUPPORTED_STRATEGY', `Strategy "${body._upload.strategy}" is not supported yet.`);
      }
      const key = config.key ? await config.key(body, request) : defaultObjectKey(body.filename);
      const url = await presign({ key, contentType: body.filetype, expiresIn });
      const answer: PresignedUploadResponse = {
        key,
        bucket: settings.bucket,
        region: settings.region,
        ...(settings.endpoint === undefined ? {} : { endpoint: settings.endpoint }),
        url,
      };
      return Response.json(answer);
    } catch (error) {
      return errorToResponse(error, log);
    }
  };
}
