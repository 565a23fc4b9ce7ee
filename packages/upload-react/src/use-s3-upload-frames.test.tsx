// @vitest-environment jsdom
import type { Uploader } from '@upbeam/upload-client';
import type { UploadResult } from '@upbeam/upload-protocol';
import { useLayoutEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, expect, it, vi } from 'vitest';
import { useS3Upload, type UseS3Upload } from './use-s3-upload';

// React's own scheduler renders the transitions here (no act(): act() would hold them to its end).
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;

afterEach(() => vi.unstubAllGlobals());

/** Progress reports the stand-in uploader makes, one every 50 ms (the engine's `PROGRESS_INTERVAL_MS`). */
const REPORTS = 40;

/**
 * A stand-in for `uploadFile` (jsdom has no network to storage; the browser suites and bench:upload-cpu upload for
 * real): `REPORTS` progress reports 50 ms apart, then the result.
 */
const reportingUploader: Uploader = (file, options) =>
  new Promise<UploadResult>((resolve) => {
    let reported = 0;
    const timer = setInterval(() => {
      reported += 1;
      options.onProgress?.({ uploaded: reported * 1000, size: REPORTS * 1000, progress: (100 * reported) / REPORTS });
      if (reported < REPORTS) return;
      clearInterval(timer);
      resolve({ url: `http://127.0.0.1/b/${file.name}`, bucket: 'b', key: file.name });
    }, 50);
  });

it('one commit per tracker notification at most, and two animation frames asked per commit at most (issue 47)', async () => {
  // A frame every 16 ms (jsdom has none), counting who asks for one.
  const frameRequests = { notifier: 0, pacer: 0 };
  vi.stubGlobal('requestAnimationFrame', (callback: (now: number) => void) => {
    const stack = new Error().stack ?? '';
    if (stack.includes('afterNextFrame')) frameRequests.pacer += 1;
    else frameRequests.notifier += 1;
    return setTimeout(() => callback(performance.now()), 16);
  });
  vi.stubGlobal('cancelAnimationFrame', (frame: ReturnType<typeof setTimeout>) => clearTimeout(frame));
  let commits = 0;
  let hook: UseS3Upload | undefined;
  function Row() {
    hook = useS3Upload({ uploader: reportingUploader });
    const uploaded = hook.files[0]?.uploaded;
    useLayoutEffect(() => {
      commits += 1;
    });
    return <progress value={uploaded} />;
  }
  const root = createRoot(document.createElement('div'));
  root.render(<Row />);
  await new Promise((resolve) => setTimeout(resolve, 100));
  let notifications = 0;
  hook!.tracker.subscribe(() => (notifications += 1));
  const before = { commits, ...frameRequests };
  hook!.addFiles([new File(['x'], 'x')]);
  await vi.waitFor(() => expect(hook!.files[0]?.status).toBe('done'), { timeout: 10_000, interval: 50 });
  root.unmount();
  const updates = { commits: commits - before.commits, notifier: frameRequests.notifier - before.notifier, pacer: frameRequests.pacer - before.pacer };
  console.log(JSON.stringify({ reports: REPORTS, notifications, ...updates }));
  // The tracker's notifier coalesces reports to one call a frame at most; each call renders once at most.
  expect(notifications).toBeLessThanOrEqual(REPORTS + 2);
  expect(updates.commits).toBeGreaterThan(1);
  expect(updates.commits).toBeLessThanOrEqual(notifications);
  // A frame for the notifier's call, and one after each commit, which the pacer waits for to time it.
  expect(updates.pacer).toBeLessThanOrEqual(updates.commits);
  expect(updates.notifier).toBeLessThanOrEqual(notifications + 2);
});
