import { DEFAULT_KEY_PREFIX, defaultObjectKey, UploadError, type BeforeUploadHook } from '@upbeam/upload-server';

/**
 * The example's stand-in for sign-in: the first answer to a browser without it sets this cookie, a random
 * user id (HttpOnly, so the page's scripts cannot change it). A real app reads its own session instead.
 */
export const USER_COOKIE = 'upbeam-example-user';

/** A user id this server hands out: a random UUID. */
const USER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The user a `Cookie` header is signed in as; undefined without a valid {@link USER_COOKIE}. */
export function userOfCookies(header: string | null | undefined): string | undefined {
  for (const pair of header?.split(';') ?? []) {
    const [name, value] = pair.trim().split('=');
    if (name === USER_COOKIE && value && USER_ID.test(value)) return value;
  }
  return undefined;
}

/** The user a request is signed in as, from its cookie; undefined when it is not. */
export function userOf(request: Request): string | undefined {
  return userOfCookies(request.headers.get('cookie'));
}

/** A `Set-Cookie` value signing a browser in as a new user, for the whole site, until the browser closes. */
export function newUserCookie(): string {
  return `${USER_COOKIE}=${crypto.randomUUID()}; Path=/; HttpOnly; SameSite=Lax`;
}

/** Where a user's uploads go, and the only keys `/api/object-url` signs for them: `next-s3-uploads/{userId}/`. */
export function userKeyPrefix(user: string): string {
  return `${DEFAULT_KEY_PREFIX}${user}/`;
}

/**
 * The handler's `onBeforeUpload`: refuses a request that is not signed in (401), and stores each upload under
 * its user's prefix, `next-s3-uploads/{userId}/{nanoid}/{file name}`.
 */
export const uploadAsUser: BeforeUploadHook = ({ body, request }) => {
  const user = userOf(request);
  if (!user) throw new UploadError('UNAUTHORIZED', 'Open the page first: it signs you in.');
  return { key: defaultObjectKey(body.filename, userKeyPrefix(user)) };
};
