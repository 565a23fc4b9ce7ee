import type { UploadResult } from '@upbeam/upload-protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAbortError } from './abort';
import type { FileTransform, UploadOptions } from './types';
import { uploadFile } from './upload-file';
import { UploadTracker, type Uploader } from './upload-tracker';

// `UploadOptions.transform` in the tracker and in `uploadFile` (no network: the tracker's uploader is a stand-in,
// `uploadFile`'s preparation POST goes to a stand-in `XMLHttpRequest` that only records it). The browser suite
// examples/react-vite/test/image-transform.e2e.test.ts sends transformed images to real storage.

const picked = new File([new Uint8Array(5000)], 'photo.jpg', { type: 'image/jpeg' });
const smaller = new File([new Uint8Array(700)], 'photo.webp', { type: 'image/webp' });
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A transform that counts its calls and ends when the test says (`finish`, `fail`), and records its signal. */
function heldTransform() {
  const calls: { file: File; signal: AbortSignal; finish: (file: File) => void; fail: (error: unknown) => void }[] = [];
  const transform: FileTransform = (file, { signal }) =>
    new Promise<File>((finish, fail) => {
      calls.push({ file, signal, finish, fail });
    });
  return { transform, calls };
}

/** A stand-in uploader: records what it is given and stores it at once. */
function recordingUploader() {
  const given: { file: File; options: UploadOptions }[] = [];
  const uploader: Uploader = async (file, options) => {
    given.push({ file, options });
    return { url: `http://127.0.0.1/bucket/${file.name}`, bucket: 'bucket', key: file.name } satisfies UploadResult;
  };
  return { uploader, given };
}

describe('UploadTracker with transform', () => {
  it('transforms once, before the uploader, which gets the result without transform; the snapshot shows its size and multipart', async () => {
    const { transform, calls } = heldTransform();
    const { uploader, given } = recordingUploader();
    const tracker = new UploadTracker({ uploader, transform, multipartThreshold: 1000 });
    const [added] = tracker.add([picked]);
    expect(tracker.getFile(added!.id)).toMatchObject({ size: 5000, multipart: true });
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]!.file).toBe(picked);
    expect(given).toHaveLength(0);
    calls[0]!.finish(smaller);
    await vi.waitFor(() => expect(tracker.getFile(added!.id)?.status).toBe('done'));
    expect(calls).toHaveLength(1);
    expect(given).toHaveLength(1);
    expect(given[0]!.file).toBe(smaller);
    expect(given[0]!.options.transform).toBeUndefined();
    expect(tracker.getFile(added!.id)).toMatchObject({ file: smaller, size: 700, multipart: false, uploaded: 700, progress: 100 });
  });

  it('a cancel during the transform aborts its signal and ends the file aborted, the uploader never called', async () => {
    const { transform, calls } = heldTransform();
    const { uploader, given } = recordingUploader();
    const tracker = new UploadTracker({ uploader, transform });
    const [added] = tracker.add([picked]);
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]!.signal.aborted).toBe(false);
    tracker.cancel(added!.id);
    expect(calls[0]!.signal.aborted).toBe(true);
    await vi.waitFor(() => expect(tracker.getFile(added!.id)?.status).toBe('aborted'));
    expect((tracker.getFile(added!.id)?.error as Error).name).toBe('AbortError');
    // The transform ending later changes nothing.
    calls[0]!.finish(smaller);
    await tick();
    expect(given).toHaveLength(0);
    expect(tracker.getFile(added!.id)?.status).toBe('aborted');
  });

  it("a transform's error fails the file with that error; a retry transforms again", async () => {
    const { transform, calls } = heldTransform();
    const { uploader, given } = recordingUploader();
    const tracker = new UploadTracker({ uploader, transform });
    const [added] = tracker.add([picked]);
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    const error = new Error('cannot decode');
    calls[0]!.fail(error);
    await vi.waitFor(() => expect(tracker.getFile(added!.id)?.status).toBe('error'));
    expect(tracker.getFile(added!.id)?.error).toBe(error);
    expect(given).toHaveLength(0);
    tracker.retry(added!.id);
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]!.file).toBe(picked);
    calls[1]!.finish(smaller);
    await vi.waitFor(() => expect(tracker.getFile(added!.id)?.status).toBe('done'));
    expect(given.map((g) => g.file)).toEqual([smaller]);
  });

  it('a transform that throws at once fails the file as one that rejects', async () => {
    const error = new TypeError('not an image');
    const tracker = new UploadTracker({
      uploader: recordingUploader().uploader,
      transform: () => {
        throw error;
      },
    });
    const [added] = tracker.add([picked]);
    await vi.waitFor(() => expect(tracker.getFile(added!.id)?.status).toBe('error'));
    expect(tracker.getFile(added!.id)?.error).toBe(error);
  });

  it('a retry after a failed upload sends the file already made, without transforming it again', async () => {
    let transforms = 0;
    let attempts = 0;
    const sent: File[] = [];
    const tracker = new UploadTracker({
      transform: () => {
        transforms += 1;
        return smaller;
      },
      uploader: async (file) => {
        sent.push(file);
        attempts += 1;
        if (attempts === 1) throw new Error('storage down');
        return { url: 'http://127.0.0.1/bucket/a', bucket: 'bucket', key: 'a' };
      },
    });
    const [added] = tracker.add([picked]);
    await vi.waitFor(() => expect(tracker.getFile(added!.id)?.status).toBe('error'));
    tracker.retry(added!.id);
    await vi.waitFor(() => expect(tracker.getFile(added!.id)?.status).toBe('done'));
    expect(transforms).toBe(1);
    expect(sent).toEqual([smaller, smaller]);
  });
});

/** Records each preparation POST's body and answers 400 (no storage here): enough to see what would be sent. */
class RecordingXhr {
  static bodies: Record<string, unknown>[] = [];
  status = 0;
  responseType = '';
  response: unknown = null;
  responseText = '';
  readonly upload = new EventTarget();
  readonly #events = new EventTarget();
  open() {}
  setRequestHeader() {}
  getAllResponseHeaders() {
    return '';
  }
  getResponseHeader() {
    return null;
  }
  addEventListener(type: string, listener: EventListener) {
    this.#events.addEventListener(type, listener);
  }
  send(body: string) {
    RecordingXhr.bodies.push(JSON.parse(body));
    setTimeout(() => {
      this.status = 400;
      this.responseText = JSON.stringify({ error: 'File too large' });
      this.response = this.responseType === 'json' ? JSON.parse(this.responseText) : null;
      this.#events.dispatchEvent(new Event('load'));
    }, 0);
  }
  abort() {}
}

describe('uploadFile with transform', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    RecordingXhr.bodies = [];
  });

  it('prepares the transformed file (its size and type), transformed once', async () => {
    vi.stubGlobal('XMLHttpRequest', RecordingXhr);
    let transforms = 0;
    const upload = uploadFile(picked, {
      maxAttempts: 1,
      transform: () => {
        transforms += 1;
        return smaller;
      },
    });
    await expect(upload).rejects.toMatchObject({ code: 'PREPARE_FAILED' });
    expect(transforms).toBe(1);
    expect(RecordingXhr.bodies).toHaveLength(1);
    expect(RecordingXhr.bodies[0]).toMatchObject({ filename: 'photo.webp', filetype: 'image/webp', filesize: 700 });
  });

  it("throws the transform's error before any request", async () => {
    vi.stubGlobal('XMLHttpRequest', RecordingXhr);
    const error = new Error('cannot decode');
    await expect(uploadFile(picked, { transform: () => Promise.reject(error) })).rejects.toBe(error);
    expect(RecordingXhr.bodies).toHaveLength(0);
  });

  it('a signal aborted during the transform rejects at once with an AbortError and aborts the signal the transform got', async () => {
    vi.stubGlobal('XMLHttpRequest', RecordingXhr);
    const { transform, calls } = heldTransform();
    const controller = new AbortController();
    const upload = uploadFile(picked, { transform, signal: controller.signal });
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    controller.abort();
    await expect(upload).rejects.toMatchObject({ name: 'AbortError', message: createAbortError().message });
    expect(calls[0]!.signal.aborted).toBe(true);
    calls[0]!.finish(smaller);
    await tick();
    expect(RecordingXhr.bodies).toHaveLength(0);
  });
});
