/**
 * The page of `bench:prepare-batch` (`batch.ts`): small files from one page through an `UploadTracker` at
 * concurrency 3, the app server 20 ms away, each file prepared, PUT to storage and reported complete (the
 * route has a completion hook: every answer holds a receipt). Three clients:
 * - `tracker`: Upbeam's client as it is (one preparation request a file), the reference;
 * - `each`: the prototype's uploader (the tracker's `uploader` option) preparing one file a request: the same
 *   steps as `batch` but for the batching, so that the two differ by the preparations' requests alone;
 * - `batch`: the prototype: one request prepares the next {@link BATCH} files of the list (the server's
 *   prototype endpoint runs the handler once per file), the next batch asked for while half of one is left.
 */
import { UploadTracker, type Uploader } from '@upbeam/upload-client';
import type { PresignedUploadResponse, UploadResult } from '@upbeam/upload-protocol';

export type BatchClient = 'tracker' | 'each' | 'batch';

/** Files one batch request prepares. */
const BATCH = 50;

export interface BatchRun {
  client: BatchClient;
  count: number;
  bytes: number;
  timeoutMs: number;
}

export interface BatchRunResult {
  done: number;
  failed: number;
  seconds: number;
  filesPerSecond: number;
  firstError?: string;
}

declare global {
  interface Window {
    benchPrepareBatch(run: BatchRun): Promise<BatchRunResult>;
  }
}

async function post<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const answer = (await response.json()) as T & { error?: string };
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${answer.error}`);
  return answer;
}

/** The body of one file's preparation, as Upbeam's client sends it. */
const preparation = (file: File) => ({ filename: file.name, filetype: file.type || 'application/octet-stream', filesize: file.size, _upload: { strategy: 'presigned' } });

function put(answer: PresignedUploadResponse, file: File): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', answer.url);
    for (const [name, value] of Object.entries(answer.headers ?? {})) xhr.setRequestHeader(name, value);
    xhr.onload = () => (xhr.status < 300 ? resolve() : reject(new Error(`PUT answered ${xhr.status}`)));
    xhr.onerror = () => reject(new Error('PUT failed'));
    xhr.send(file);
  });
}

/** PUT, then the completion report (`_upload.complete` with the receipt), as Upbeam's client does. */
async function sendPrepared(answer: PresignedUploadResponse, file: File): Promise<UploadResult> {
  await put(answer, file);
  await post('/api/upbeam', { ...preparation(file), _upload: { strategy: 'presigned', complete: { key: answer.key, receipt: answer.receipt } } });
  return { url: answer.url.split('?')[0]!, bucket: answer.bucket, key: answer.key } as UploadResult;
}

const eachUploader: Uploader = async (file) => sendPrepared(await post<PresignedUploadResponse>('/api/upbeam', preparation(file)), file);

/** The prototype's batching: the answers of files asked for ahead, by file. */
function batchUploader(files: File[]): Uploader {
  const answers = new Map<File, Promise<PresignedUploadResponse>>();
  const indexOf = new Map(files.map((file, index) => [file, index]));
  let next = 0;
  const askFrom = () => {
    const batch = files.slice(next, next + BATCH);
    next += batch.length;
    const answered = post<{ answers: PresignedUploadResponse[] }>('/api/upbeam-batch', { files: batch.map(preparation) });
    batch.forEach((file, index) => answers.set(file, answered.then(({ answers: all }) => all[index]!)));
  };
  return async (file) => {
    const index = indexOf.get(file)!;
    while (next <= index) askFrom();
    // Half a batch left asked for: the next one goes now, so that no upload waits for its answer.
    if (next < files.length && next - index <= BATCH / 2) askFrom();
    const answer = await answers.get(file)!;
    answers.delete(file);
    return sendPrepared(answer, file);
  };
}

window.benchPrepareBatch = async ({ client, count, bytes, timeoutMs }) => {
  const content = crypto.getRandomValues(new Uint8Array(bytes));
  const files = Array.from({ length: count }, (_, index) => new File([content], `file-${index}.bin`, { type: 'application/octet-stream' }));
  const uploader = client === 'tracker' ? undefined : client === 'each' ? eachUploader : batchUploader(files);
  const tracker = new UploadTracker({ concurrency: 3, endpoint: { url: '/api/upbeam' }, ...(uploader ? { uploader } : {}) });
  let done = 0;
  let failed = 0;
  let firstError: string | undefined;
  const started = performance.now();
  const ended = new Promise<void>((resolve) => {
    tracker.onFileEnd((file) => {
      if (file.status === 'done') done += 1;
      else {
        failed += 1;
        firstError ??= String(file.error);
      }
      if (done + failed === count) resolve();
    });
  });
  tracker.add(files);
  const timer = setTimeout(() => tracker.cancel(), timeoutMs);
  await ended;
  clearTimeout(timer);
  const seconds = (performance.now() - started) / 1000;
  return { done, failed, seconds, filesPerSecond: done / seconds, ...(firstError ? { firstError } : {}) };
};
