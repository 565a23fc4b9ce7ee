/**
 * The page's side of background uploads (`UploadTrackerOptions.background`), loaded with `import()` by a tracker
 * given the option: registers the package's service worker, hands each presigned-POST upload to Background Fetch
 * (prepared in the page, its completion report written to IndexedDB for the worker), follows its progress, cancels
 * it with `abort()`, and lists the background uploads of the tracker's endpoint when the page opens again.
 */
import {
  DEFAULT_UPLOAD_ENDPOINT,
  MAX_SINGLE_PUT_SIZE,
  type PresignedPostUploadResponse,
  type UploadResult,
} from '@upbeam/upload-protocol';
import { createAbortError, onAbort } from '../abort';
import { UploadClientError } from '../errors';
import { endpointBody } from '../prepare';
import { postForm } from '../presigned-post/post-form';
import { postedObjectUrl, preparePost } from '../presigned-post/prepare-post';
import { throttledProgress } from '../progress';
import { resolveRetrySettings } from '../retry';
import { knownChecksum } from '../route-checksum';
import type { TrackedFile } from '../tracked-file';
import { TrackedUpload, type TrackerShared, type Uploader } from '../tracked-upload';
import type { UploadContext, UploadOptions } from '../types';
import { uploadFile } from '../upload-file';
import { BACKGROUND_MESSAGE, hasBackgroundFetch, type BackgroundFetchManagerLike, type BackgroundFetchRegistrationLike } from './background-fetch';
import { deleteRecord, readRecord, readRecords, writeRecord, type BackgroundOutcome, type BackgroundRecord } from './background-records';

/**
 * Where the app serves the background uploads' service worker (see `UploadTrackerOptions.background`): the file
 * `@upbeam/upload-client/service-worker.js`, copied into the app's public folder or served by its server.
 * @example
 * // Vite or Next.js: public/upbeam-sw.js is a copy of node_modules/@upbeam/upload-client/dist/service-worker.js
 * new UploadTracker({ strategy: 'presigned-post', background: { serviceWorker: '/upbeam-sw.js' } });
 */
export interface BackgroundOptions {
  /** URL of `@upbeam/upload-client/service-worker.js` as the app serves it, on the page's origin. @default '/upbeam-sw.js' */
  serviceWorker?: string;
  /**
   * The worker's registration scope. The default, `upbeam-background/` beside the script, is a path no page lives
   * at: the worker controls no page and never replaces the app's own service worker. Give the app's own scope
   * when the app's worker loads this one with `importScripts()` (then `serviceWorker` is the app's worker).
   * @default 'upbeam-background/' beside `serviceWorker`
   */
  scope?: string;
}

/** The default path of the service worker. */
export const DEFAULT_SERVICE_WORKER = '/upbeam-sw.js';

/** What the background uploads reach of their tracker's list (beside what its files share, `TrackerShared`). */
export interface BackgroundList {
  /** Adds files found again on a visit (their owners and first changes). */
  add(uploads: readonly { upload: TrackedUpload; change: Partial<TrackedFile> }[]): void;
  /** The worker could not be registered: uploads run in the page (`background: 'unavailable'`). */
  unavailable(): void;
}

/** How often a page waiting for the worker's outcome reads its record, beside the worker's message (ms). */
const OUTCOME_POLL_MS = 250;

const absolute = (url: string) => new URL(url, location.href).href;

/** The POST of a background upload, prepared as the in-page POST is (`preparePost`); it must carry a form. */
async function preparedForm(upload: UploadContext): Promise<PresignedPostUploadResponse> {
  const { answer } = await preparePost(upload, 'presigned-post', knownChecksum(upload));
  if (!answer.fields) throw new UploadClientError('INVALID_PREPARE_RESPONSE', 'Upload endpoint answered without url and fields.');
  return answer;
}

/** The error a failed background upload ends with. */
function failure(outcome: Extract<BackgroundOutcome, { status: 'failed' }>): UploadClientError {
  // A storage refusal carries S3's code; a completion report refused carries the endpoint's.
  const code = outcome.message.startsWith('Storage') || outcome.message.startsWith('The browser') ? 'STORAGE_ERROR' : 'PREPARE_FAILED';
  return new UploadClientError(code, outcome.message, { status: outcome.httpStatus, answerCode: outcome.code });
}

/** Resolves once `worker` is activated (or gone). */
const activated = (worker: ServiceWorker) =>
  new Promise<void>((resolve) => {
    const check = () => (worker.state === 'activated' || worker.state === 'redundant') && resolve();
    worker.addEventListener('statechange', check);
    check();
  });

/**
 * Background uploads of one tracker (see `UploadTrackerOptions.background`).
 */
export class BackgroundUploads {
  readonly #list: BackgroundList;
  readonly #shared: TrackerShared;
  /** Background Fetch of the worker's registration; `undefined` when unavailable. */
  readonly #manager: Promise<BackgroundFetchManagerLike | undefined>;
  /** Uploaders of the files found running on a visit: they follow the browser's upload. */
  readonly #restored = new Map<string, Uploader>();
  /** Pages waiting for an outcome, by id: the worker's message settles them at once. */
  readonly #waiting = new Map<string, (outcome: BackgroundOutcome) => void>();
  #restoring: Promise<void> | undefined;

  constructor(options: true | BackgroundOptions, shared: TrackerShared, list: BackgroundList) {
    this.#list = list;
    this.#shared = shared;
    const settings = options === true ? {} : options;
    this.#manager = hasBackgroundFetch() ? this.#register(settings) : Promise.resolve(undefined);
  }

  async #register({ serviceWorker = DEFAULT_SERVICE_WORKER, scope }: BackgroundOptions): Promise<BackgroundFetchManagerLike | undefined> {
    try {
      const script = absolute(serviceWorker);
      const registration = await navigator.serviceWorker.register(script, { scope: scope ?? new URL('upbeam-background/', script).href });
      if (!registration.active) await activated((registration.installing ?? registration.waiting)!);
      navigator.serviceWorker.addEventListener('message', (event: MessageEvent) => {
        const { data } = event;
        if (data?.type === BACKGROUND_MESSAGE) this.#waiting.get(data.id)?.(data.outcome);
      });
      navigator.serviceWorker.startMessages();
      const manager = (registration as unknown as { backgroundFetch?: BackgroundFetchManagerLike }).backgroundFetch;
      if (!registration.active || !manager) throw new Error('no active worker with Background Fetch');
      return manager;
    } catch (error) {
      console.warn(`Upbeam: the background uploads' service worker ${serviceWorker} could not be registered: uploads run in the page.`, error);
      this.#list.unavailable();
      return undefined;
    }
  }

  /**
   * The uploader of file `id`: its follower when it was found running on this visit; Background Fetch for a
   * presigned-POST upload of at most 5 GiB when the worker is registered; else `undefined` (it runs in the page).
   */
  async uploaderFor(id: string, options: UploadOptions): Promise<Uploader | undefined> {
    const restored = this.#restored.get(id);
    if (restored) return restored;
    if (options.strategy !== 'presigned-post') return undefined;
    const manager = await this.#manager;
    if (!manager) return undefined;
    // Over 5 GiB: in the page, which refuses it with the words of a POST's limit.
    return (file, fileOptions) => (file.size > MAX_SINGLE_PUT_SIZE ? uploadFile(file, fileOptions) : this.#start(manager, id, file, fileOptions));
  }

  /** Prepares `file` in the page, writes its record, and hands the POST to the browser. */
  async #start(manager: BackgroundFetchManagerLike, id: string, file: File, options: UploadOptions): Promise<UploadResult> {
    const upload: UploadContext = {
      file,
      filetype: file.type || 'application/octet-stream',
      options: resolveRetrySettings(options),
      report: throttledProgress(file.size, options.onProgress),
    };
    const answer = await preparedForm(upload);
    // The form as one Blob (the browser references the file, it does not copy it): its exact size is the
    // `uploadTotal` the browser shows. Its Content-Type (`multipart/form-data`: a simple request) is the form's
    // header, not the Blob's `type`, which is lowercased and so no longer names the body's boundary.
    const form = new Request(answer.url, { method: 'POST', body: postForm(answer, file) });
    const headers = { 'Content-Type': form.headers.get('Content-Type')! };
    const body = await form.blob();
    const endpoint = absolute(options.endpoint?.url ?? DEFAULT_UPLOAD_ENDPOINT);
    const record: BackgroundRecord = {
      id,
      endpoint,
      name: options.filename ?? file.name,
      type: upload.filetype,
      size: file.size,
      result: { url: postedObjectUrl(answer.url, answer.key), bucket: answer.bucket, key: answer.key },
      ...(answer.receipt && {
        complete: {
          url: endpoint,
          headers: { ...options.endpoint?.headers, 'Content-Type': 'application/json' },
          body: JSON.stringify(endpointBody(upload, { strategy: 'presigned-post', complete: { key: answer.key, receipt: answer.receipt } })),
        },
      }),
      page: location.href,
      started: Date.now(),
    };
    if (options.signal?.aborted) throw createAbortError();
    await writeRecord(record);
    let registration: BackgroundFetchRegistrationLike;
    try {
      registration = await manager.fetch(id, new Request(answer.url, { method: 'POST', headers, body }), { uploadTotal: body.size, title: record.name });
    } catch (error) {
      // Refused by the browser (no permission, no room): sent in the page, as without `background`.
      await deleteRecord(id).catch(() => undefined);
      console.warn('Upbeam: Background Fetch refused the upload; it runs in the page.', error);
      return uploadFile(file, options);
    }
    this.#shared.update(id, { background: 'running' });
    // With `persist`: it leaves the kept queue (the browser sends it, not a reloaded page).
    void this.#shared.persistence?.then((persistence) => persistence.forget(id));
    return this.#follow(registration, file.size, options);
  }

  /**
   * Follows a background upload until the worker recorded its end: its progress (the form's bytes sent, scaled to
   * the file's), a cancel (`abort()`: too late once stored, then it ends `done`), and its outcome.
   */
  #follow(registration: BackgroundFetchRegistrationLike | undefined, size: number, options: UploadOptions): Promise<UploadResult> {
    const id = registration?.id;
    const report = throttledProgress(size, options.onProgress);
    return new Promise<UploadResult>((resolve, reject) => {
      let ended = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const settle = (outcome: BackgroundOutcome) => {
        if (ended) return;
        ended = true;
        clearTimeout(timer);
        stop();
        this.#waiting.delete(recordId);
        void deleteRecord(recordId).catch(() => undefined);
        if (outcome.status === 'done') {
          this.#shared.update(recordId, { background: 'done' });
          resolve(outcome.result);
        } else if (outcome.status === 'failed') {
          this.#shared.update(recordId, { background: 'failed' });
          reject(failure(outcome));
        } else reject(createAbortError());
      };
      const recordId = id ?? '';
      const poll = () => {
        timer = setTimeout(async () => {
          const record = await readRecord(recordId).catch(() => undefined);
          if (record?.outcome) settle(record.outcome);
          else if (!ended) poll();
        }, OUTCOME_POLL_MS);
      };
      this.#waiting.set(recordId, settle);
      const progress = () => {
        if (!registration) return;
        const { uploaded, uploadTotal } = registration;
        // The last byte is held until the worker says it is stored.
        if (uploadTotal > 0) report(Math.min(size - 1, Math.floor((uploaded / uploadTotal) * size)));
      };
      registration?.addEventListener('progress', progress);
      progress();
      poll();
      const stop = onAbort(options.signal, () => {
        registration?.abort().then(
          (aborted) => aborted && settle({ status: 'aborted' }),
          () => undefined,
        );
      });
    }).then((result) => {
      report(size);
      return result;
    });
  }

  /**
   * On a visit: lists the background uploads of the tracker's endpoint that this page does not track. Running ones
   * come back `uploading` with `background: 'running'` and are followed; ended ones as they ended (`done` with
   * their result, or `error`), once: their records are then deleted. A cancelled one is not listed.
   */
  restore(): Promise<void> {
    return (this.#restoring ??= this.#restore());
  }

  async #restore(): Promise<void> {
    const manager = await this.#manager;
    if (!manager) return;
    const endpoint = absolute(this.#shared.defaults().endpoint?.url ?? DEFAULT_UPLOAD_ENDPOINT);
    const [records, ids] = await Promise.all([readRecords().catch(() => []), manager.getIds().catch((): string[] => [])]);
    const files: { id: string; file: File; change: Partial<TrackedFile>; queue: boolean }[] = [];
    for (const record of records) {
      const { id, outcome } = record;
      if (record.endpoint !== endpoint || this.#shared.get(id)) continue;
      const file = new File([], record.name, { type: record.type });
      const change: Partial<TrackedFile> = { size: record.size, restored: true };
      if (outcome) {
        void deleteRecord(id).catch(() => undefined);
        this.#restored.set(id, notHere);
        if (outcome.status === 'done') {
          const { result } = outcome;
          files.push({ id, file, queue: false, change: { ...change, status: 'done', background: 'done', progress: 100, uploaded: record.size, url: result.url, result } });
        } else if (outcome.status === 'failed') {
          files.push({ id, file, queue: false, change: { ...change, status: 'error', background: 'failed', error: failure(outcome) } });
        }
        continue;
      }
      // Running (or its worker is recording its end): followed until the worker's outcome.
      const registration = ids.includes(id) ? await manager.get(id) : undefined;
      this.#restored.set(id, (_file, options) => {
        this.#restored.set(id, notHere);
        return this.#follow(registration ?? goneRegistration(id), record.size, options);
      });
      files.push({ id, file, queue: true, change: { ...change, background: 'running' } });
    }
    if (files.length === 0) return;
    const uploads = files.map(({ id, file, change, queue }) => ({ upload: new TrackedUpload(id, file, undefined, {}, this.#shared), change, queue }));
    this.#list.add(uploads);
    for (const { upload, queue } of uploads) if (queue) upload.queue();
  }
}

/** A registration that is gone (the worker is recording how it ended): no progress, its outcome comes from the record. */
function goneRegistration(id: string): BackgroundFetchRegistrationLike {
  const target = new EventTarget() as BackgroundFetchRegistrationLike;
  return Object.assign(target, { id, uploaded: 0, uploadTotal: 0, result: '', failureReason: '', abort: async () => false, matchAll: async () => [] });
}

/** The uploader of a file found on a visit, retried: its bytes are not in this page. */
const notHere: Uploader = () =>
  Promise.reject(
    new UploadClientError('FILE_UNREADABLE', 'This upload ran in the background while the page was closed: its file is not in this page. Pick it again.'),
  );
