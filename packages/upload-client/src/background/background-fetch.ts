/**
 * Background Fetch as the page and the service worker of background uploads reach it: the few shapes they read
 * (not in TypeScript's DOM library), whether this browser has it, and the message the worker sends to the pages.
 * Imports nothing: the service worker's bundle reads it too.
 */

/** The `type` of the message the worker posts to the open pages when a background upload ended. */
export const BACKGROUND_MESSAGE = 'upbeam:background-upload';

/** A `BackgroundFetchRegistration`: one background upload as the browser runs it. */
export interface BackgroundFetchRegistrationLike extends EventTarget {
  readonly id: string;
  /** Bytes of the request body sent so far. */
  readonly uploaded: number;
  readonly uploadTotal: number;
  /** `''` while it runs, then `'success'` or `'failure'`. */
  readonly result: '' | 'success' | 'failure';
  /** Why it failed: `'aborted'`, `'bad-status'` (storage answered 4xx/5xx), `'fetch-error'`, `'quota-exceeded'`, ... */
  readonly failureReason: string;
  abort(): Promise<boolean>;
  matchAll(): Promise<{ readonly responseReady: Promise<Response> }[]>;
}

/** A `BackgroundFetchManager` (`ServiceWorkerRegistration.backgroundFetch`). */
export interface BackgroundFetchManagerLike {
  fetch(id: string, request: Request, options: { uploadTotal?: number; title?: string; downloadTotal?: number }): Promise<BackgroundFetchRegistrationLike>;
  get(id: string): Promise<BackgroundFetchRegistrationLike | undefined>;
  getIds(): Promise<string[]>;
}

/**
 * Whether this page can hand uploads to Background Fetch: the API (Chromium: Chrome, Edge, Opera, Samsung
 * Internet), service workers, and a secure context (https, or http on localhost / 127.0.0.1). Firefox and Safari
 * have no Background Fetch.
 */
export function hasBackgroundFetch(): boolean {
  return (
    typeof (globalThis as { BackgroundFetchManager?: unknown }).BackgroundFetchManager === 'function' &&
    typeof navigator !== 'undefined' &&
    'serviceWorker' in navigator &&
    globalThis.isSecureContext === true
  );
}
