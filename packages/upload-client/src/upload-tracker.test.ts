import type { UploadResult } from '@upbeam/upload-protocol';
import { describe, expect, it } from 'vitest';
import { createAbortError } from './abort';
import type { UploadOptions } from './types';
import { UploadTracker, type Uploader } from './upload-tracker';

/**
 * A stand-in for `uploadFile` (no network in unit tests; the browser suites upload for real): every call
 * waits until the test sends its bytes (`send`) and ends it (`finish`, `fail`); cancelling rejects it as
 * `uploadFile` does.
 */
function standInUploader() {
  const calls: { file: File; options: UploadOptions; finish: () => void; fail: (error: unknown) => void; send: (bytes: number) => void }[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const uploader: Uploader = (file, options) =>
    new Promise<UploadResult>((resolve, reject) => {
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      const settle = () => (inFlight -= 1);
      const key = `uploads/${options.filename ?? file.name}`;
      const call = {
        file,
        options,
        send: (bytes: number) => options.onProgress?.({ uploaded: bytes, size: file.size, progress: (bytes / file.size) * 100 }),
        finish: () => {
          settle();
          resolve({ url: `http://127.0.0.1/bucket/${key}`, bucket: 'bucket', key });
        },
        fail: (error: unknown) => {
          settle();
          reject(error);
        },
      };
      options.signal?.addEventListener('abort', () => call.fail(createAbortError()), { once: true });
      calls.push(call);
    });
  return { uploader, calls, mostInFlight: () => mostInFlight };
}

const file = (name: string, size = 100) => new File([new Uint8Array(size)], name, { type: 'image/png' });
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('UploadTracker queue', () => {
  it('uploads 10 files never more than `concurrency` at once, in the order added', async () => {
    const { uploader, calls, mostInFlight } = standInUploader();
    const tracker = new UploadTracker({ uploader, concurrency: 3 });
    const added = tracker.add(Array.from({ length: 10 }, (_, i) => file(`f${i}.png`)));
    expect(added.map((f) => f.status)).toEqual(Array(10).fill('queued'));
    expect(tracker.getSnapshot().filter((f) => f.status === 'uploading')).toHaveLength(3);
    for (let done = 0; done < 10; done += 1) {
      await tick();
      calls[done]!.send(100);
      calls[done]!.finish();
    }
    await tick();
    expect(mostInFlight()).toBe(3);
    expect(calls.map((c) => c.file.name)).toEqual(added.map((f) => f.file.name));
    expect(tracker.getSnapshot().every((f) => f.status === 'done' && f.progress === 100)).toBe(true);
    expect(tracker.getSummary()).toMatchObject({ uploaded: 1000, size: 1000, progress: 100, count: { done: 10 } });
  });

  it('defaults to 3 files in flight, and rejects a concurrency under 1', () => {
    const { uploader } = standInUploader();
    const tracker = new UploadTracker({ uploader });
    tracker.add([file('a'), file('b'), file('c'), file('d')]);
    expect(tracker.getSummary().count).toMatchObject({ uploading: 3, queued: 1 });
    expect(() => new UploadTracker({ concurrency: 0 })).toThrow(
      expect.objectContaining({ name: 'UploadClientError', code: 'INVALID_OPTIONS', message: expect.stringContaining('concurrency') }),
    );
  });

  it('keeps overall progress non-decreasing across files, counting queued files in the size', async () => {
    const { uploader, calls } = standInUploader();
    const tracker = new UploadTracker({ uploader, concurrency: 2 });
    const seen: number[] = [];
    tracker.subscribe(() => seen.push(tracker.getSummary().progress));
    tracker.add([file('a', 100), file('b', 300), file('c', 600)]);
    expect(tracker.getSummary()).toMatchObject({ size: 1000, uploaded: 0 });
    calls[0]!.send(50);
    calls[1]!.send(300);
    calls[0]!.send(100);
    calls[0]!.finish();
    await tick();
    calls[2]!.send(600);
    calls[1]!.finish();
    calls[2]!.finish();
    await tick();
    expect(seen).toEqual([...seen].sort((x, y) => x - y));
    expect(seen.at(-1)).toBe(100);
  });

  it('cancels a queued file without starting it, and a running one through its signal', async () => {
    const { uploader, calls } = standInUploader();
    const tracker = new UploadTracker({ uploader, concurrency: 1 });
    const [running, queued] = tracker.add([file('a'), file('b')]);
    tracker.cancel(queued!.id);
    tracker.cancel(running!.id);
    await tick();
    expect(calls).toHaveLength(1);
    expect(tracker.getSnapshot().map((f) => f.status)).toEqual(['aborted', 'aborted']);
    expect(tracker.getSummary()).toMatchObject({ size: 0, count: { aborted: 2 } });
  });

  it('retries a cancelled or failed file: queued again from 0, then done', async () => {
    const { uploader, calls } = standInUploader();
    const tracker = new UploadTracker({ uploader });
    const [tracked] = tracker.add([file('a')]);
    calls[0]!.send(40);
    calls[0]!.fail(new Error('storage said no'));
    await tick();
    expect(tracker.getSnapshot()[0]).toMatchObject({ status: 'error', uploaded: 40 });
    expect(tracker.getSummary().size).toBe(0);
    tracker.retry(tracked!.id);
    expect(tracker.getSnapshot()[0]).toMatchObject({ status: 'uploading', uploaded: 0, error: undefined });
    calls[1]!.finish();
    await tick();
    expect(tracker.getSnapshot()[0]).toMatchObject({ status: 'done', url: 'http://127.0.0.1/bucket/uploads/a' });
    tracker.retry(tracked!.id);
    expect(calls).toHaveLength(2);
  });

  it('removes a running file: cancelled, off the list, its place given to the next', async () => {
    const { uploader, calls } = standInUploader();
    const tracker = new UploadTracker({ uploader, concurrency: 1 });
    const [first, second] = tracker.add([file('a'), file('b')]);
    tracker.remove(first!.id);
    await tick();
    expect(tracker.getSnapshot().map((f) => f.id)).toEqual([second!.id]);
    expect(calls.map((c) => c.file.name)).toEqual(['a', 'b']);
    expect(tracker.getSnapshot()[0]!.status).toBe('uploading');
  });

  it('upload(file) resolves with the result, and rejects with AbortError when cancelled', async () => {
    const { uploader, calls } = standInUploader();
    const tracker = new UploadTracker({ uploader });
    const stored = tracker.upload(file('a'));
    calls[0]!.finish();
    await expect(stored).resolves.toMatchObject({ key: 'uploads/a' });
    const cancelled = tracker.upload(file('b'));
    tracker.cancel();
    await expect(cancelled).rejects.toMatchObject({ name: 'AbortError', message: 'Upload aborted.' });
  });

  it('cancels a file whose signal has already aborted, before any request', async () => {
    const { uploader, calls } = standInUploader();
    const tracker = new UploadTracker({ uploader });
    const signal = AbortSignal.abort();
    await expect(tracker.upload(file('a'), { signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(calls).toHaveLength(0);
  });

  it('sends a folder file’s relative path as filename', async () => {
    const { uploader, calls } = standInUploader();
    const tracker = new UploadTracker({ uploader });
    tracker.add([{ file: file('a.jpg'), path: 'photos/2024/a.jpg' }]);
    expect(calls[0]!.options.filename).toBe('photos/2024/a.jpg');
    expect(tracker.getSnapshot()[0]!.path).toBe('photos/2024/a.jpg');
  });

  it('reset drops queued files (never started) and empties the list', async () => {
    const { uploader, calls } = standInUploader();
    const tracker = new UploadTracker({ uploader, concurrency: 1 });
    tracker.add([file('a'), file('b')]);
    tracker.reset();
    calls[0]!.finish();
    await tick();
    expect(calls).toHaveLength(1);
    expect(tracker.getSnapshot()).toEqual([]);
  });

  it('reports speed and time left while sending, none once everything is stored', async () => {
    const { uploader, calls } = standInUploader();
    const tracker = new UploadTracker({ uploader });
    tracker.add([file('a', 1_000_000)]);
    calls[0]!.send(10_000);
    await new Promise((resolve) => setTimeout(resolve, 30));
    calls[0]!.send(20_000);
    const summary = tracker.getSummary();
    expect(summary.bytesPerSecond).toBeGreaterThan(0);
    expect(summary.secondsLeft).toBeCloseTo((1_000_000 - 20_000) / summary.bytesPerSecond);
    calls[0]!.finish();
    await tick();
    expect(tracker.getSummary()).toMatchObject({ bytesPerSecond: 0, secondsLeft: undefined, progress: 100 });
  });
});
