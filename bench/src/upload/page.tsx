/**
 * The page of the upload benchmark: one file input and the three browser clients, each used as an app
 * would (the two React hooks render their tracked files' progress). The benchmark calls
 * `window.benchUpload(...)` after setting the file; it resolves when the client's upload resolves, with
 * the main thread's long tasks (Long Tasks API: every task over 50 ms) seen during the upload.
 */
import { DEFAULT_QUEUE_SIZE } from '@upbeam/upload-client/multipart';
import type { ChecksumAlgorithm } from '@upbeam/upload-protocol';
import { uploadFile } from '@upbeam/upload-client';
import { useS3Upload } from '@upbeam/upload-react';
import { usePresignedUpload } from 'next-s3-upload';
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { uploadWithProgress } from '../bundle/floor';
import { floorMultipart, type FloorPartRead } from './floor-multipart';
import { floorTokenMultipart } from './floor-token-multipart';
import { floorTokenPut } from './floor-token-put';
import { longTasksSince, type LongTasks } from './long-tasks';

export type { LongTasks } from './long-tasks';
import { partTimeline, requestsSince, type PartTimeline } from './part-timeline';

/** What the benchmark asks the page to do. */
export interface PageUpload {
  /** `upbeam-unrendered`: Upbeam's `uploadFile` (the engine under the hook) with the same options, nothing drawn. */
  client: 'upbeam' | 'upbeam-unrendered' | 'next-s3-upload' | 'floor' | 'floor-token' | 'floor-multipart' | 'floor-token-multipart';
  strategy?: 'presigned' | 'temporary-token';
  /**
   * Upbeam's multipart options (bytes, parts at once), passed as given; unset ones take the defaults. The
   * browser multipart floors (`floor-multipart`, `floor-token-multipart`) need `partSize` and `queueSize`.
   */
  multipartThreshold?: number;
  queueSize?: number;
  partSize?: number;
  /** `floor-multipart`: how each part is read (and hashed) before it is sent; default `blob`. */
  partRead?: FloorPartRead;
  /** `floor-multipart`: listen to each part's upload progress events (as a client showing progress must). */
  progress?: boolean;
  /**
   * `floor-multipart` with `progress`: draw the summed bytes in the page (a `<progress>` and the bytes, through
   * React state) at most every {@link DRAW_INTERVAL_MS}, as the hook's page draws Upbeam's: the floor of a page
   * that shows its progress.
   */
  draw?: boolean;
  /**
   * Upbeam: the page is opened with `?strategy=<strategy>`, so that the hook is made with it (see
   * `DECLARED_STRATEGY`); read by the benchmark, which opens the page.
   */
  declared?: boolean;
  /**
   * Upbeam's `checksum` option (`'md5'`: each part hashed and sent with its Content-MD5; `'crc32c'`,
   * `'crc64nvme'`, `'sha256'`: in `x-amz-checksum-*`; `false`: none, whatever the server answers).
   */
  checksum?: ChecksumAlgorithm | false;
  /**
   * Upbeam: the endpoint, when not `/api/upbeam`. `/api/upbeam-unsigned-create` is the same handler with the
   * `parts` dropped from the multipart `create` answer, as a server before them answered (page-server.ts).
   */
  endpoint?: string;
}

/** What the page answers: milliseconds from the call to the resolved upload, and the stored object's URL. */
export interface PageUploadResult {
  ms: number;
  url: string;
  longTasks: LongTasks;
  /** Multipart uploads: how the parts followed each other (Resource Timing of the UploadPart requests). */
  parts?: PartTimeline;
}

declare global {
  interface Window {
    benchUpload(input: PageUpload): Promise<PageUploadResult>;
    /** Bytes the bare XHR multipart floor with `progress` last reported. */
    benchFloorSent?: number;
    /** Bytes `upbeam-unrendered` last reported (kept, not drawn). */
    benchUnrenderedProgress?: number;
  }
}

/**
 * How often at most the drawn floor draws its progress, in milliseconds: Upbeam's own rate of progress reports
 * (`PROGRESS_INTERVAL_MS` in packages/upload-client/src/progress.ts), so that both pages draw as often.
 */
const DRAW_INTERVAL_MS = 50;

/** `draw(bytes)` at most every {@link DRAW_INTERVAL_MS}, the latest bytes; the last call is drawn too, late. */
function throttledDraw(draw: (bytes: number) => void): (bytes: number) => void {
  let latest = 0;
  let drawnAt = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    drawnAt = performance.now();
    draw(latest);
  };
  return (bytes) => {
    latest = bytes;
    const wait = drawnAt + DRAW_INTERVAL_MS - performance.now();
    if (wait <= 0) flush();
    else timer ??= setTimeout(flush, wait);
  };
}

// Room for every UploadPart of a 1 GiB file in 5 MiB parts and its signing requests (the default keeps 250).
performance.setResourceTimingBufferSize(10_000);

/**
 * `?strategy=temporary-token` in the page's address: the hook is made with that strategy, as an app with one
 * strategy makes it (the tracker then loads the strategy's chunk with the page, not at the first upload).
 * Without it the strategy comes with each upload, and the hook loads nothing before one.
 */
const DECLARED_STRATEGY = new URLSearchParams(location.search).get('strategy') === 'temporary-token' ? 'temporary-token' : undefined;

function Harness() {
  const upbeam = useS3Upload({ endpoint: { url: '/api/upbeam' }, ...(DECLARED_STRATEGY && { strategy: DECLARED_STRATEGY }) });
  const next = usePresignedUpload();
  const [floorProgress, setFloorProgress] = useState(0);
  const [floorMultipartSent, setFloorMultipartSent] = useState<{ bytes: number; size: number }>();

  window.benchUpload = async (input) => {
    const file = (document.getElementById('file') as HTMLInputElement).files?.[0];
    if (!file) throw new Error('no file set');
    performance.clearResourceTimings();
    const started = performance.now();
    let url: string;
    if (input.client === 'upbeam' || input.client === 'upbeam-unrendered') {
      const { client, strategy = 'presigned', endpoint, declared: _declared, ...multipart } = input;
      const options = { strategy, ...multipart, endpoint: { url: endpoint ?? '/api/upbeam' } };
      ({ url } = await (client === 'upbeam' ? upbeam.uploadToS3(file, options) : uploadFile(file, { ...options, onProgress: (progress) => (window.benchUnrenderedProgress = progress.uploaded) })));
    } else if (input.client === 'floor-multipart') {
      // With `progress`, the summed bytes are only kept: the cost measured is the browser's events, not a render;
      // with `draw` too, they are drawn as the hook's page draws Upbeam's.
      const draw = input.draw ? throttledDraw((bytes) => setFloorMultipartSent({ bytes, size: file.size })) : undefined;
      const onSent = (bytes: number) => {
        window.benchFloorSent = bytes;
        draw?.(bytes);
      };
      url = await floorMultipart(file, input.partSize!, input.queueSize!, input.progress ? onSent : undefined, input.partRead);
    } else if (input.client === 'next-s3-upload') {
      ({ url } = await next.uploadToS3(file, { endpoint: { request: { url: '/api/next-s3-upload' } } }));
    } else if (input.client === 'floor-token-multipart') {
      url = await floorTokenMultipart(file, '/api/upbeam', input.partSize!, input.queueSize!);
    } else if (input.client === 'floor-token') {
      url = await floorTokenPut(file, '/api/upbeam', setFloorProgress);
    } else {
      url = await uploadWithProgress(file, setFloorProgress, '/api/upbeam');
    }
    const ended = performance.now();
    const ms = ended - started;
    // The last tasks of the upload may still be queued for the observer: a macrotask lets them arrive.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const requests = requestsSince(started);
    const parts = partTimeline(requests.parts, input.queueSize ?? DEFAULT_QUEUE_SIZE, started, ended, requests.others);
    return { ms, url, longTasks: longTasksSince(started), ...(parts && { parts }) };
  };

  return (
    <main>
      <input type="file" id="file" />
      <ul>
        {upbeam.files.map((tracked) => (
          <li key={tracked.id}>
            Upbeam {tracked.file.name}: <progress value={tracked.progress} max={100} /> {tracked.uploaded} bytes
          </li>
        ))}
        {next.files.map((tracked) => (
          <li key={tracked.id}>
            next-s3-upload {tracked.file.name}: <progress value={tracked.progress} max={100} /> {tracked.uploaded} bytes
          </li>
        ))}
        <li>
          floor: <progress value={floorProgress} max={100} />
        </li>
        {floorMultipartSent && (
          <li>
            multipart floor: <progress value={(floorMultipartSent.bytes / floorMultipartSent.size) * 100} max={100} /> {floorMultipartSent.bytes} bytes
          </li>
        )}
      </ul>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<Harness />);
