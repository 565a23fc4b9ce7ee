/**
 * The page of the lead-in benchmark: a file input whose change event starts the upload, as an app's picker
 * does. The benchmark arms the page with a mode (`window.leadInArm`), sets the input's file, and reads the
 * result (`window.leadInResult`): the moment of the change event (the file picked) and of the resolved upload,
 * in milliseconds since the epoch (`performance.timeOrigin + performance.now()`), so that the run can set the
 * first byte that storage's socket received (its TCP proxy, another process) against the pick.
 *
 * Upbeam goes through `useS3Upload`'s add path (`uploadToS3`: the tracker adds and draws the file); the floors
 * are the bare XHR PUT (`bundle/floor.ts`) and the bare multipart (`upload/floor-multipart.ts`: one `create`
 * that presigns the parts, then UploadPart), imported as they are.
 */
import { useS3Upload } from '@upbeam/upload-react';
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { uploadWithProgress } from '../bundle/floor';
import { floorMultipart } from '../upload/floor-multipart';

/** What the next pick uploads, and how. */
export interface LeadInMode {
  client: 'upbeam' | 'floor-put' | 'floor-multipart';
  /** Upbeam: `multipartThreshold` (bytes) of the upload. */
  multipartThreshold?: number;
  /** The bare multipart: part size (bytes) and parts at once. */
  partSize?: number;
  queueSize?: number;
}

/** One pick and its upload, times in ms since the epoch. */
export interface LeadInResult {
  pickedAt: number;
  resolvedAt?: number;
  url?: string;
  error?: string;
  /** Resource Timing of the page's requests from the pick on: path, start and end (ms from the pick). */
  requests: { path: string; start: number; end: number }[];
}

declare global {
  interface Window {
    leadInArm(mode: LeadInMode): void;
    leadInResult?: Promise<LeadInResult>;
  }
}

const epochNow = () => performance.timeOrigin + performance.now();

let armed: LeadInMode | undefined;
window.leadInArm = (mode) => {
  armed = mode;
  window.leadInResult = undefined;
  performance.clearResourceTimings();
};

function Harness() {
  const upbeam = useS3Upload({ endpoint: { url: '/api/upbeam' } });
  const [floorProgress, setFloorProgress] = useState(0);

  const onChange = (event: React.ChangeEvent<HTMLInputElement>) => {
    const pickedAt = epochNow();
    const since = performance.now();
    const file = event.target.files?.[0];
    const mode = armed;
    if (!file || !mode) return;
    const upload = (): Promise<string> => {
      if (mode.client === 'upbeam') return upbeam.uploadToS3(file, { strategy: 'presigned', multipartThreshold: mode.multipartThreshold }).then(({ url }) => url);
      if (mode.client === 'floor-multipart') return floorMultipart(file, mode.partSize!, mode.queueSize!);
      return uploadWithProgress(file, setFloorProgress, '/api/upbeam');
    };
    window.leadInResult = upload().then(
      (url) => ({ pickedAt, resolvedAt: epochNow(), url, requests: requestsSince(since) }),
      (error: unknown) => ({ pickedAt, error: String(error), requests: requestsSince(since) }),
    );
  };

  return (
    <main>
      <input type="file" id="file" onChange={onChange} />
      <ul>
        {upbeam.files.map((tracked) => (
          <li key={tracked.id}>
            Upbeam {tracked.file.name}: <progress value={tracked.progress} max={100} /> {tracked.uploaded} bytes
          </li>
        ))}
        <li>
          floor: <progress value={floorProgress} max={100} />
        </li>
      </ul>
    </main>
  );
}

/** The page's requests that started after `since` (`performance.now()`), ms from it. */
function requestsSince(since: number): LeadInResult['requests'] {
  return (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
    .filter((entry) => entry.startTime >= since)
    .map((entry) => {
      const url = new URL(entry.name);
      return { path: url.origin === location.origin ? url.pathname : `storage ${url.search.includes('partNumber=') ? 'UploadPart' : 'PUT'}`, start: entry.startTime - since, end: entry.responseEnd - since };
    });
}

createRoot(document.getElementById('root')!).render(<Harness />);
