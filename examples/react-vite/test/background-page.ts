// The page of background.e2e.test.ts: a tracker with `background: true` on the presigned-post strategy, the
// package's service worker served at the default /upbeam-sw.js. The test drives it through `window.upbeam`.
import { UploadTracker } from '@upbeam/upload-client';

const tracker = new UploadTracker({ strategy: 'presigned-post', background: true });
// The first listener lists the background uploads that ran while no page was open.
tracker.subscribe(() => {});

/** The test's bytes: byte i is `(i * 31 + (i >>> 13)) & 255` (the test computes the same to compare). */
function pattern(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i += 1) bytes[i] = (i * 31 + (i >>> 13)) & 255;
  return bytes;
}

const view = () =>
  tracker.getSnapshot().map((file) => ({
    id: file.id,
    name: file.file.name,
    status: file.status,
    background: file.background,
    restored: file.restored === true,
    uploaded: file.uploaded,
    size: file.size,
    url: file.url,
    serverData: file.result?.serverData,
    error: file.error === undefined ? undefined : String((file.error as Error).message ?? file.error),
  }));

Object.assign(window, {
  upbeam: {
    add: (name: string, size: number) => tracker.add([new File([pattern(size) as BlobPart], name, { type: 'application/octet-stream' })])[0]!.id,
    cancel: (id: string) => tracker.cancel(id),
    files: view,
    availability: () => tracker.getSummary().background,
  },
});
