/**
 * `clearKeptUploads`: the one call an app makes on sign-out so that nothing a user left for later uploads
 * under the next user's session. The work is in the chunk of a tracker with `persist` (`clear-kept.ts`),
 * loaded with `import()` on the first call.
 */

/**
 * Forgets, in this browser profile, the uploads kept for later of one user (`scope`, as given to
 * `persist: { scope }` and `resume: { scope }`), or of every user and the unscoped ones when `scope` is
 * `undefined`:
 * - the trackers with `persist` of that scope, in this tab and in every other tab of the origin, cancel their
 *   files and take them off their lists (a running upload is cancelled as `cancel(id)` does);
 * - the files those trackers keep leave IndexedDB, and the multipart upload of each is aborted on storage
 *   (through the preparation endpoint, with the page's cookies: call this before the sign-out request, while
 *   the session still holds; an abort the endpoint refuses leaves the parts to the bucket's lifecycle rule);
 * - the resume journal's records of that scope are removed (the parts of a record without a kept file, from
 *   `uploadFile` with `resume` or a failed file kept for a retry, stay until the bucket's lifecycle rule).
 *
 * Resolves once the kept files and records are gone (the cancelled uploads' own aborts may still be on the
 * way). Never rejects: without IndexedDB nothing was kept.
 *
 * @param scope - The user whose kept uploads go; `undefined`: every scope's, and the unscoped queue's.
 * @example
 * async function signOut(user: { id: string }) {
 *   await clearKeptUploads(user.id);
 *   await fetch('/api/sign-out', { method: 'POST' });
 * }
 */
export async function clearKeptUploads(scope?: string): Promise<void> {
  const { clearKept } = await import('./tracker-persistence');
  await clearKept(scope);
}
