import { createObjectAccess, DEFAULT_KEY_PREFIX, type StorageSettings } from '@upbeam/upload-server';

/** Lifetime of the signed GET URLs the page gets, in seconds. */
const OBJECT_URL_SECONDS = 300;

/**
 * Signed GET URLs for the page's uploads: the bucket is private (`objectAcl: 'private'`), so `result.url`
 * does not open; the page asks for a URL valid 5 minutes. Keys outside the upload prefix get none. A real
 * app also checks that the signed-in user may read the key (its own uploads).
 */
export function objectUrlSigner(settings: StorageSettings): (key: string) => Promise<string | undefined> {
  const objects = createObjectAccess(settings);
  return async (key) => (key.startsWith(DEFAULT_KEY_PREFIX) ? objects.signedGetUrl(key, { expiresIn: OBJECT_URL_SECONDS }) : undefined);
}
