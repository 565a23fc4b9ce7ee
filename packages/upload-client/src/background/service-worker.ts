/**
 * @module
 * The service worker of background uploads (`UploadTrackerOptions.background`), shipped built as
 * `@upbeam/upload-client/service-worker.js`: a plain script (no imports) that the app serves at a path of its own
 * origin (default `/upbeam-sw.js`), or loads into its own worker with `importScripts()`. It needs no page: when
 * the browser ends a background upload (a Background Fetch whose record the page wrote in IndexedDB), it sends the
 * completion report (`_upload.complete` with the receipt) to the endpoint, so the server's `onUploadComplete`
 * runs, records how the upload ended for the page's next visit, tells any open page, and sets the browser's
 * notification to "Uploaded name" or "Upload failed: name". Background Fetches that are not Upbeam's (no record)
 * are left to the app's own listeners.
 */
import { readRecord, writeRecord, type BackgroundOutcome, type BackgroundRecord, type CompletionRequest } from './background-records';
import { BACKGROUND_MESSAGE, type BackgroundFetchRegistrationLike } from './background-fetch';

/** The Background Fetch events the worker hears (not in TypeScript's DOM library). */
interface BackgroundFetchEventLike extends Event {
  waitUntil(promise: Promise<unknown>): void;
  readonly registration: BackgroundFetchRegistrationLike;
  updateUI?(options: { title?: string }): Promise<void>;
}

interface WorkerScope {
  addEventListener(type: string, listener: (event: never) => void): void;
  skipWaiting(): Promise<void>;
  clients: {
    matchAll(options: { includeUncontrolled: boolean; type: 'window' }): Promise<readonly { postMessage(message: unknown): void }[]>;
    openWindow(url: string): Promise<unknown>;
  };
}

const worker = self as unknown as WorkerScope;

/** Attempts of the completion report: network errors and 408, 429, 5xx are tried again, 1 then 2 s later. */
const COMPLETE_ATTEMPTS = 3;
const RETRIED = new Set([408, 429, 500, 502, 503, 504]);

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The `<tag>` of an S3 error body (`<Error><Code>EntityTooLarge</Code>...`). */
const xmlTag = (text: string, tag: string): string | undefined => new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(text)?.[1];

/** Sends the completion report, as the page would; the result with the hook's `serverData`, or the refusal. */
async function complete(record: BackgroundRecord, report: CompletionRequest): Promise<BackgroundOutcome> {
  let failure: BackgroundOutcome = { status: 'failed', message: `No answer from the upload endpoint ${report.url}.` };
  for (let attempt = 1; attempt <= COMPLETE_ATTEMPTS; attempt += 1) {
    if (attempt > 1) await wait(1000 * (attempt - 1));
    let response: Response;
    try {
      // `same-origin`: the page's XHR sends cookies to its own origin only; so does this.
      response = await fetch(report.url, { method: 'POST', headers: report.headers, body: report.body, credentials: 'same-origin' });
    } catch {
      continue;
    }
    const answer = (await response.json().catch(() => undefined)) as { serverData?: unknown; error?: string; code?: string } | undefined;
    if (response.ok) {
      const { serverData } = answer ?? {};
      return { status: 'done', result: serverData === undefined ? record.result : { ...record.result, serverData } };
    }
    failure = {
      status: 'failed',
      message: answer?.error || `Upload endpoint answered ${response.status}.`,
      httpStatus: response.status,
      ...(answer?.code === undefined ? {} : { code: answer.code }),
    };
    if (!RETRIED.has(response.status)) break;
  }
  return failure;
}

/** Why storage refused the POST (its XML error, when the browser lets the worker read it), or the browser's reason. */
async function refusal(registration: BackgroundFetchRegistrationLike): Promise<BackgroundOutcome> {
  const reason = registration.failureReason || 'fetch-error';
  try {
    const [fetched] = await registration.matchAll();
    const response = await fetched!.responseReady;
    const text = await response.text();
    const code = xmlTag(text, 'Code');
    const detail = xmlTag(text, 'Message');
    return {
      status: 'failed',
      message: `Storage refused the upload (${response.status}${code ? ` ${code}` : ''})${detail ? `: ${detail}` : '.'}`,
      httpStatus: response.status,
      ...(code === undefined ? {} : { code }),
    };
  } catch {
    return { status: 'failed', message: `The browser could not send the upload (${reason}).` };
  }
}

/** Records how `registration` ended, tells the open pages, and sets the browser's notification. */
async function ended(event: BackgroundFetchEventLike, how: 'success' | 'fail' | 'abort'): Promise<void> {
  const { registration } = event;
  const record = await readRecord(registration.id).catch(() => undefined);
  if (!record) return;
  let outcome: BackgroundOutcome;
  if (how === 'abort') outcome = { status: 'aborted' };
  else if (how === 'fail') outcome = await refusal(registration);
  else outcome = record.complete ? await complete(record, record.complete) : { status: 'done', result: record.result };
  // The report (with the endpoint's headers) is not kept once sent.
  const { complete: _sent, ...kept } = record;
  await writeRecord({ ...kept, outcome });
  if (how !== 'abort') {
    const title = outcome.status === 'done' ? `Uploaded ${record.name}` : `Upload failed: ${record.name}`;
    await event.updateUI?.({ title }).catch(() => undefined);
  }
  const pages = await worker.clients.matchAll({ includeUncontrolled: true, type: 'window' });
  for (const page of pages) page.postMessage({ type: BACKGROUND_MESSAGE, id: record.id, outcome });
}

worker.addEventListener('install', () => {
  void worker.skipWaiting();
});
worker.addEventListener('backgroundfetchsuccess', (event: BackgroundFetchEventLike) => event.waitUntil(ended(event, 'success')));
worker.addEventListener('backgroundfetchfail', (event: BackgroundFetchEventLike) => event.waitUntil(ended(event, 'fail')));
worker.addEventListener('backgroundfetchabort', (event: BackgroundFetchEventLike) => event.waitUntil(ended(event, 'abort')));
worker.addEventListener('backgroundfetchclick', (event: BackgroundFetchEventLike) =>
  event.waitUntil(
    readRecord(event.registration.id).then((record) => (record ? worker.clients.openWindow(record.page) : undefined)),
  ),
);
