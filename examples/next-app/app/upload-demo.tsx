'use client';
import type { UploadStrategy } from '@upbeam/upload-client';
import { Uploader } from '@upbeam/upload-react/components';
import { useState } from 'react';
import { Choice, type ChoiceOption } from './choice';
import { fileDetails } from './file-details';

const STRATEGIES: ChoiceOption<UploadStrategy>[] = [
  { value: 'presigned', label: 'Presigned URL (one PUT)' },
  { value: 'temporary-token', label: 'Temporary token (multipart)' },
];

/**
 * The two preparation endpoints of this app, the same handler in either router (Next.js route handlers; the
 * handler declares no upload routes, so `<Uploader>` takes hook options, not a `route`).
 */
const ROUTES: ChoiceOption<string>[] = [
  { value: '/api/s3-upload', label: 'App Router (app/api/s3-upload/route.ts)' },
  { value: '/api/pages-router/s3-upload', label: 'Pages Router (pages/api/pages-router/s3-upload.ts)' },
];

const MiB = 1024 * 1024;

/** Largest file this demo takes, in bytes (checked before any request; the server checks its own). */
const MAX_FILE_SIZE = 5 * 1024 * MiB;

/**
 * Where files go multipart here (the library's default is 100 MiB), so that the demo shows parts, pause and
 * resume on files of modest size: from 32 MiB with presigned URLs (a photo still goes in one PUT), from 5 MiB
 * (one part) with the temporary token, as its label says.
 */
const MULTIPART_THRESHOLD: Record<UploadStrategy, number> = {
  presigned: 32 * MiB,
  'temporary-token': 5 * MiB,
  // Unread: a presigned POST is one object (not offered by this demo's choices).
  'presigned-post': 32 * MiB,
};

/**
 * The page's interactive part, a client component: the strategy and route selectors, then the ready-made
 * `<Uploader>` (drop zone, overall progress, a row per file) with the hook options they choose.
 */
export function UploadDemo() {
  const [strategy, setStrategy] = useState<UploadStrategy>('presigned');
  const [endpoint, setEndpoint] = useState(ROUTES[0]!.value);
  // Off by default: a failed multipart upload is then aborted on storage; on, it is kept to continue.
  const [resumable, setResumable] = useState(false);
  return (
    <>
      {/* The page's settings, one card: the strategy's and the route's radios, then the resume checkbox. */}
      <div className="settings">
        <Choice legend="Strategy" name="strategy" options={STRATEGIES} value={strategy} onChange={setStrategy} />
        <Choice legend="Route" name="route" options={ROUTES} value={endpoint} onChange={setEndpoint} />
        <label className="resume">
          <input type="checkbox" checked={resumable} onChange={(event) => setResumable(event.target.checked)} />
          Resume interrupted uploads (parts kept in this browser)
        </label>
      </div>
      <Uploader
        options={{ strategy, endpoint: { url: endpoint }, multipartThreshold: MULTIPART_THRESHOLD[strategy], resume: resumable }}
        maxSize={MAX_FILE_SIZE}
        folders
        details={fileDetails}
      />
    </>
  );
}
