import type { UploadRequestBody } from '@upbeam/upload-protocol';

/** What `onBeforeUpload` sees. */
export interface BeforeUploadContext {
  /** The checked request body, with the caller's extra fields (own properties only). */
  body: UploadRequestBody;
  /**
   * The original request: cookies, headers, session. Its body is the one the handler read: used already
   * (`bodyUsed`) when the handler is called as a Fetch handler. Through `toNodeHandler`, a `Request` built
   * when first read, whose body (declared up to 16 KiB, every browser's preparation, or parsed by a
   * framework) is still unread: `clone()`, `json()`, `new Request(request)` and `fetch(request)` work.
   */
  request: Request;
}

/** What `onBeforeUpload` may decide for this upload; every field is optional. */
export interface BeforeUploadResult {
  /** Object key to use instead of the default; checked like any key (under `keyPrefix`, no `..`, ...). */
  key?: string;
  /** User metadata stored with the object (`x-amz-meta-*`), e.g. `{ 'user-id': '42' }`. */
  metadata?: Record<string, string>;
  /** Content-Disposition stored with the object, e.g. `attachment; filename="report.pdf"`. */
  contentDisposition?: string;
  /**
   * Whose quotas and rate limits this upload counts against (`limits`): a user id, an org, an IP. Not part of
   * the route's `context`. Unset: the client's IP address as the node adapter sees it (`toNodeHandler`,
   * `createPagesHandler`; with `trustProxy`, the first `X-Forwarded-For` address); a plain Fetch handler sees
   * none, so a route with limits served there must return one (500 `INVALID_SETTINGS` otherwise).
   */
  subject?: string;
}

/**
 * What `onBeforeUpload` may return: its decisions ({@link BeforeUploadResult}) and any other JSON fields
 * (`{ userId }`): those other fields are the route's `context`, given to its `onUploadComplete`. Nothing
 * (`void`): no context.
 */
export type BeforeUploadReturn = (BeforeUploadResult & Record<string, unknown>) | void;

/**
 * Runs before anything is signed: authorize the user, choose the key, add metadata. To refuse, throw an
 * `UploadError` with a 4xx code; the browser gets its message:
 *
 * @example
 * onBeforeUpload: async ({ request }) => {
 *   const user = await getUser(request);
 *   if (!user) throw new UploadError('UNAUTHORIZED', 'Sign in to upload.');
 *   return { key: `users/${user.id}/${crypto.randomUUID()}`, metadata: { 'user-id': user.id }, userId: user.id };
 * }
 *
 * `Context` is what it returns: with `defineRoute`, the type of `context` in the route's `onUploadComplete`.
 */
export type BeforeUploadHook<Context extends BeforeUploadReturn = BeforeUploadReturn> = (
  context: BeforeUploadContext,
) => Context | Promise<Context>;
