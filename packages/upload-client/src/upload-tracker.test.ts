import type { UploadResult } from '@upbeam/upload-protocol';
import { describe, expect, it, vi } from 'vitest';
import { createAbortError } from './abort';
import type { UploadOptions } from './types';
import type { TrackedFile } from './tracked-file';
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
/** Waits longer than one notification frame (16 ms where there is no requestAnimationFrame, as here in Node). */
const nextFrame = () => new Promise((resolve) => setTimeout(resolve, 40));

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
    let heard = () => {};
    tracker.subscribe(() => {
      seen.push(tracker.getSummary().progress);
      heard();
    });
    tracker.add([file('a', 100), file('b', 300), file('c', 600)]);
    expect(tracker.getSummary()).toMatchObject({ size: 1000, uploaded: 0 });
    // The listener heard between steps, so that it sees each of them (changes within a frame come as one). Not a
    // fixed wait: a loaded machine's late timer counts as the listener's cost, and the notifier then pauses longer.
    for (const step of [
      () => calls[0]!.send(50),
      () => calls[1]!.send(300),
      () => calls[0]!.send(100),
      () => calls[0]!.finish(),
      () => calls[2]!.send(600),
      () => calls[1]!.finish(),
      () => calls[2]!.finish(),
    ]) {
      const next = new Promise<void>((resolve) => (heard = resolve));
      step();
      await next;
    }
    expect(seen.length).toBeGreaterThanOrEqual(7);
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

  it('keeps its totals file by file: the summary equals one counted from the list, through cancel all and reset', async () => {
    const { uploader, calls } = standInUploader();
    const tracker = new UploadTracker({ uploader, concurrency: 2 });
    tracker.add([file('a', 100), file('b', 200), file('c', 300), file('d', 400), file('e', 500)]);
    calls[0]!.send(50);
    calls[1]!.finish();
    await tick();
    const counted = (files: readonly TrackedFile[]) => files.reduce((sum, f) => (f.status === 'aborted' ? sum : sum + f.size), 0);
    expect(tracker.getSummary()).toMatchObject({ uploaded: 250, size: counted(tracker.getSnapshot()), count: { uploading: 2, done: 1, queued: 2 } });
    tracker.cancel();
    await tick();
    const statuses = tracker.getSnapshot().map((f) => f.status);
    expect(statuses).toEqual(['aborted', 'done', 'aborted', 'aborted', 'aborted']);
    // One cancel of every file: the queued ones share its one error.
    expect(tracker.getSnapshot()[3]!.error).toBe(tracker.getSnapshot()[4]!.error);
    expect(tracker.getSummary()).toMatchObject({ size: 200, uploaded: 200, progress: 100, count: { aborted: 4, done: 1, queued: 0, uploading: 0 } });
    const before = tracker.getSnapshot();
    tracker.reset();
    // The list's arrays are let go at once, not on their next read.
    expect(tracker.getSnapshot()).not.toBe(before);
    expect(tracker.getSnapshot()).toEqual([]);
    expect(tracker.getIds()).toEqual([]);
    expect(tracker.getSummary()).toMatchObject({ size: 0, uploaded: 0, count: { aborted: 0, done: 0 } });
  });

  it('cancel all of 20,000 queued files: none starts after it, each ends aborted (in slices) and is told once; a reset meanwhile still settles upload(file)', async () => {
    const { uploader, calls } = standInUploader();
    const tracker = new UploadTracker({ uploader, concurrency: 3 });
    const ended: string[] = [];
    tracker.onFileEnd((f) => ended.push(f.id));
    tracker.add(Array.from({ length: 20_000 }, (_, index) => file(`f${index}`)));
    const last = tracker.upload(file('last'));
    last.catch(() => {});
    tracker.cancel();
    tracker.cancel(tracker.getIds()[19_999]!);
    await vi.waitFor(() => expect(tracker.getSummary().count).toMatchObject({ queued: 0, aborted: 20_001 }), { timeout: 10_000 });
    await tick();
    expect(calls).toHaveLength(3);
    expect(new Set(ended).size).toBe(ended.length);
    expect(ended).toHaveLength(20_001);
    await expect(last).rejects.toMatchObject({ name: 'AbortError' });

    const again = new UploadTracker({ uploader: standInUploader().uploader, concurrency: 1 });
    again.add(Array.from({ length: 20_000 }, (_, index) => file(`g${index}`)));
    const queued = again.upload(file('queued'));
    again.cancel();
    again.reset();
    await expect(queued).rejects.toMatchObject({ name: 'AbortError' });
    expect(again.getSnapshot()).toEqual([]);
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

describe('UploadTracker file ends (onFileEnd)', () => {
  it('tells each end once, with the file as it ended: stored, failed, cancelled; again after a retry', async () => {
    const { uploader, calls } = standInUploader();
    const tracker = new UploadTracker({ uploader, concurrency: 1 });
    const ends: TrackedFile[] = [];
    tracker.onFileEnd((ended) => ends.push(ended));
    const [a, b, c] = tracker.add([file('a'), file('b'), file('c')]);
    const failure = new Error('storage said no');
    calls[0]!.fail(failure);
    await tick();
    tracker.cancel(c!.id);
    calls[1]!.finish();
    await tick();
    expect(ends.map((f) => [f.id, f.status])).toEqual([
      [a!.id, 'error'],
      [c!.id, 'aborted'],
      [b!.id, 'done'],
    ]);
    expect(ends[0]!.error).toBe(failure);
    expect(ends[2]).toBe(tracker.getFile(b!.id));
    expect(ends[2]!.result).toEqual({ url: 'http://127.0.0.1/bucket/uploads/b', bucket: 'bucket', key: 'uploads/b' });
    // A retry that fails then stores within one frame is told both ends (no snapshot is read between them).
    tracker.retry(a!.id);
    calls[2]!.finish();
    await tick();
    expect(ends.slice(3).map((f) => [f.id, f.status])).toEqual([[a!.id, 'done']]);
  });

  it('tells nothing of a file removed before it ended, nor after unsubscribing; a throwing listener leaves the tracker as it was', async () => {
    const { uploader, calls } = standInUploader();
    const tracker = new UploadTracker({ uploader });
    const ends: string[] = [];
    const stop = tracker.onFileEnd((ended) => ends.push(ended.status));
    const thrown: unknown[] = [];
    const onUncaught = (error: unknown) => thrown.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      tracker.onFileEnd(() => {
        throw new Error('a listener failed');
      });
      const [a, b] = tracker.add([file('a'), file('b')]);
      tracker.remove(a!.id);
      calls[1]!.finish();
      await tick();
      expect(ends).toEqual(['done']);
      expect(tracker.getFile(b!.id)?.status).toBe('done');
      expect(thrown).toHaveLength(1);
      stop();
      tracker.retry(b!.id);
      expect(tracker.getFile(b!.id)?.status).toBe('done');
      const [c] = tracker.add([file('c')]);
      calls[2]!.fail(new Error('no'));
      await tick();
      expect(tracker.getFile(c!.id)?.status).toBe('error');
      expect(ends).toEqual(['done']);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });
});

describe('UploadTracker snapshots at scale', () => {
  it('keeps every unchanged file the same object, and the array until something changes', async () => {
    const { uploader, calls } = standInUploader();
    const tracker = new UploadTracker({ uploader, concurrency: 3 });
    tracker.add([file('a'), file('b'), file('c'), file('d')]);
    const before = tracker.getSnapshot();
    expect(tracker.getSnapshot()).toBe(before);
    expect(tracker.getSummary()).toBe(tracker.getSummary());
    calls[1]!.send(60);
    const after = tracker.getSnapshot();
    expect(after).not.toBe(before);
    expect(after[1]).not.toBe(before[1]);
    expect(after[1]).toMatchObject({ uploaded: 60, progress: 60 });
    for (const index of [0, 2, 3]) expect(after[index]).toBe(before[index]);
    expect(tracker.getFile(after[1]!.id)).toBe(after[1]);
    expect(tracker.getFile(after[0]!.id)).toBe(before[0]);
    calls[1]!.send(60);
    expect(tracker.getSnapshot()).toBe(after);
    tracker.remove(after[3]!.id);
    expect(tracker.getSnapshot().slice(0, 3)).toEqual(after.slice(0, 3));
    expect(tracker.getSnapshot()[0]).toBe(before[0]);
    expect(tracker.getFile(after[3]!.id)).toBeUndefined();
  });

  it('keeps the ids array while files change, and makes a new one when a file is added or removed', () => {
    const { uploader, calls } = standInUploader();
    const tracker = new UploadTracker({ uploader, concurrency: 3 });
    expect(tracker.getIds()).toEqual([]);
    const added = tracker.add([file('a'), file('b'), file('c')]);
    const ids = tracker.getIds();
    expect(ids).toEqual(added.map((f) => f.id));
    calls[0]!.send(50);
    calls[1]!.finish();
    tracker.pause(added[2]!.id);
    expect(tracker.getIds()).toBe(ids);
    const [more] = tracker.add([file('d')]);
    const grown = tracker.getIds();
    expect(grown).not.toBe(ids);
    expect(grown).toEqual([...ids, more!.id]);
    tracker.remove(added[0]!.id);
    expect(tracker.getIds()).toEqual([added[1]!.id, added[2]!.id, more!.id]);
    tracker.reset();
    expect(tracker.getIds()).toEqual([]);
  });

  it('calls its listeners once for all the changes between two frames, with the latest state', async () => {
    const { uploader, calls } = standInUploader();
    const tracker = new UploadTracker({ uploader, concurrency: 3 });
    const seen: (readonly TrackedFile[])[] = [];
    tracker.subscribe(() => seen.push(tracker.getSnapshot()));
    tracker.add([file('a', 1000), file('b', 1000), file('c', 1000)]);
    for (let bytes = 10; bytes <= 1000; bytes += 10) for (const call of calls) call.send(bytes);
    expect(seen).toHaveLength(0);
    expect(tracker.getSnapshot().map((f) => f.uploaded)).toEqual([1000, 1000, 1000]);
    await nextFrame();
    expect(seen).toHaveLength(1);
    expect(seen[0]!.map((f) => f.uploaded)).toEqual([1000, 1000, 1000]);
    await nextFrame();
    expect(seen).toHaveLength(1);
  });

  it('delivers the last change (done), and settles upload(file) at once, not a frame later', async () => {
    const { uploader, calls } = standInUploader();
    const tracker = new UploadTracker({ uploader });
    const seen: string[] = [];
    tracker.subscribe(() => seen.push(tracker.getSnapshot()[0]!.status));
    const stored = tracker.upload(file('a'));
    calls[0]!.send(100);
    calls[0]!.finish();
    await expect(stored).resolves.toMatchObject({ key: 'uploads/a' });
    expect(seen).toEqual([]);
    expect(tracker.getSnapshot()[0]!.status).toBe('done');
    await nextFrame();
    expect(seen).toEqual(['done']);
  });

  it('calls a slow listener less often: after a call of d ms, the next comes 19 d later at the earliest', async () => {
    const { uploader, calls } = standInUploader();
    const tracker = new UploadTracker({ uploader });
    const at: number[] = [];
    tracker.subscribe(() => {
      at.push(performance.now());
      // A render that takes 40 ms (the work after the listener, in a microtask, counts too).
      queueMicrotask(() => {
        const until = performance.now() + 40;
        while (performance.now() < until);
      });
    });
    tracker.add([file('a', 1000)]);
    await nextFrame();
    expect(at).toHaveLength(1);
    calls[0]!.send(500);
    await nextFrame();
    expect(at).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(at).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(at).toHaveLength(2);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(40 + 19 * 40);
  });

  it('notifies at animation frames where the runtime has them (a stand-in frame clock)', async () => {
    const frames: FrameRequestCallback[] = [];
    const cancelled: number[] = [];
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
    vi.stubGlobal('cancelAnimationFrame', (handle: number) => cancelled.push(handle));
    try {
      const { uploader, calls } = standInUploader();
      const tracker = new UploadTracker({ uploader });
      let notified = 0;
      tracker.subscribe(() => (notified += 1));
      tracker.add([file('a')]);
      calls[0]!.send(50);
      expect(frames).toHaveLength(1);
      frames[0]!(performance.now());
      expect(notified).toBe(1);
      calls[0]!.send(100);
      expect(frames).toHaveLength(2);
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(notified).toBe(2);
      expect(cancelled).toEqual([2]);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
