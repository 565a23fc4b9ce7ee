'use client';
import type { UploadStrategy } from '@upbeam/upload-react';
import { useState } from 'react';
import { Uploader as UploadList } from './_upload-ui/uploader';

const STRATEGIES: { value: UploadStrategy; label: string }[] = [
  { value: 'presigned', label: 'Presigned URL (one PUT)' },
  { value: 'temporary-token', label: 'Temporary token (multipart)' },
];

/** The two preparation routes of this app, the same handler in either router. */
const ROUTES: { url: string; label: string }[] = [
  { url: '/api/s3-upload', label: 'App Router (app/api/s3-upload/route.ts)' },
  { url: '/api/pages-router/s3-upload', label: 'Pages Router (pages/api/pages-router/s3-upload.ts)' },
];

const MiB = 1024 * 1024;

/**
 * Where files go multipart here (the library's default is 100 MiB), so that the demo shows parts, pause and
 * resume on files of modest size: from 32 MiB with presigned URLs (a photo still goes in one PUT), from 5 MiB
 * (one part) with the temporary token, as its label says.
 */
const MULTIPART_THRESHOLD: Record<UploadStrategy, number> = { presigned: 32 * MiB, 'temporary-token': 5 * MiB };

/** The strategy and route selectors, then the drop zone and the list of uploads with their progress. */
export function Uploader() {
  const [strategy, setStrategy] = useState<UploadStrategy>('presigned');
  const [route, setRoute] = useState(ROUTES[0]!.url);
  // Off by default: a failed multipart upload is then aborted on storage; on, it is kept to continue.
  const [resumable, setResumable] = useState(false);
  return (
    <>
      <fieldset className="strategy">
        <legend>Strategy</legend>
        {STRATEGIES.map((option) => (
          <label key={option.value}>
            <input
              type="radio"
              name="strategy"
              value={option.value}
              checked={strategy === option.value}
              onChange={() => setStrategy(option.value)}
            />
            {option.label}
          </label>
        ))}
      </fieldset>
      <fieldset className="strategy">
        <legend>Route</legend>
        {ROUTES.map((option) => (
          <label key={option.url}>
            <input
              type="radio"
              name="route"
              value={option.url}
              checked={route === option.url}
              onChange={() => setRoute(option.url)}
            />
            {option.label}
          </label>
        ))}
      </fieldset>
      <label className="resume">
        <input type="checkbox" checked={resumable} onChange={(event) => setResumable(event.target.checked)} />
        Resume interrupted uploads (parts kept in this browser)
      </label>
      <UploadList options={{ strategy, endpoint: { url: route }, multipartThreshold: MULTIPART_THRESHOLD[strategy], resume: resumable }} />
    </>
  );
}
