// @vitest-environment jsdom
import type { RouteRulesResponse } from '@upbeam/upload-protocol';
import { createEffect, createRoot, createSignal } from 'solid-js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { standInUploader } from '../../../test/stand-in-uploader';
import { createDropZone, type DropZoneOptions } from './create-drop-zone';
import { createS3Upload, type S3UploadOptions } from './create-s3-upload';

// Node resolves `solid-js` to Solid's server build, where nothing is reactive (effects never run): the tests
// take its browser build, as a bundler does for a page (Solid's own file, through its exports map).
// @ts-expect-error the build file has no declarations of its own (they are those of `solid-js`)
vi.mock('solid-js', () => import('solid-js/dist/solid.js'));

afterEach(() => vi.unstubAllGlobals());

/** An effect in its own root that records what `read` gives each time it runs; `stop` disposes the root. */
function probe<T>(read: () => T): { seen: T[]; stop: () => void } {
  const seen: T[] = [];
  const stop = createRoot((dispose) => {
    createEffect(() => seen.push(read()));
    return dispose;
  });
  return { seen, stop };
}

describe('createS3Upload (Solid)', () => {
  it('gives files and summary as signals: an effect reruns on each change, until its owner is disposed', async () => {
    const { uploader, finishes } = standInUploader();
    let upload!: ReturnType<typeof createS3Upload>;
    const { seen, stop } = createRoot((dispose) => {
      upload = createS3Upload({ uploader, concurrency: 1 });
      const seen: string[] = [];
      createEffect(() => seen.push(`${upload.files().map((file) => file.status).join(',')}|${upload.summary().count.done}`));
      return { seen, stop: dispose };
    });
    expect(seen).toEqual(['|0']);
    upload.addFiles([new File(['a'], 'a.png'), new File(['bb'], 'b.png')]);
    // The tracker tells of changes at most once per animation frame (a timer where there are no frames).
    await vi.waitFor(() => expect(seen.at(-1)).toBe('uploading,queued|0'));
    expect(upload.summary().size).toBe(3);
    finishes[0]!();
    await vi.waitFor(() => expect(seen.at(-1)).toBe('done,uploading|1'));
    // Disposed: the primitive no longer listens to the tracker (its uploads go on); a read is still the state now.
    stop();
    const runs = seen.length;
    upload.cancel();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toHaveLength(runs);
    expect(upload.files().map((file) => file.status)).toEqual(['done', 'aborted']);
  });

  it('reads the state now outside any effect, has the actions of the other bindings, and applies options (an accessor, or setOptions) to the uploads added after', async () => {
    const first = standInUploader();
    const second = standInUploader();
    const third = standInUploader();
    const [options, setOptions] = createSignal<S3UploadOptions>({ uploader: first.uploader, concurrency: 1 });
    await createRoot(async (dispose) => {
      const upload = createS3Upload(options);
      upload.addFiles([new File(['a'], 'a.png'), new File(['bb'], 'b.png')]);
      expect(upload.files().map((file) => file.status)).toEqual(['uploading', 'queued']);
      upload.cancel(upload.files()[1]!.id);
      await vi.waitFor(() => expect(upload.files().map((file) => file.status)).toEqual(['uploading', 'aborted']));
      upload.retry(upload.files()[1]!.id);
      await vi.waitFor(() => expect(upload.files()[1]!.status).toBe('queued'));
      upload.remove(upload.files()[1]!.id);
      setOptions({ uploader: second.uploader });
      upload.addFiles([new File(['c'], 'c.png')]);
      upload.setOptions({ uploader: third.uploader });
      upload.addFiles([new File(['d'], 'd.png')]);
      first.finishes[0]!();
      await vi.waitFor(() => expect([first.finishes.length, second.finishes.length, third.finishes.length]).toEqual([1, 1, 1]));
      upload.resetFiles();
      await vi.waitFor(() => expect(upload.files()).toEqual([]));
      dispose();
    });
  });
});

describe('createDropZone (Solid)', () => {
  it('gives reactive root and input props, a drag-active signal, takes picked files by the rules', async () => {
    const onDrop = vi.fn();
    const [disabled, setDisabled] = createSignal(false);
    const input = document.createElement('input');
    const click = vi.spyOn(input, 'click').mockImplementation(() => {});
    const { zone, stop } = createRoot((dispose) => {
      const zone = createDropZone(() => ({ accept: 'image/*', disabled: disabled(), onDrop }));
      zone.inputProps.ref(input);
      return { zone, stop: dispose };
    });
    expect({ ...zone.rootProps }).toMatchObject({ role: 'button', tabindex: 0, 'aria-disabled': undefined });
    expect({ ...zone.inputProps }).toMatchObject({ type: 'file', multiple: true, accept: 'image/*', webkitdirectory: undefined, style: 'display: none' });
    const attributes = probe(() => [zone.rootProps.tabindex, zone.inputProps.disabled]);
    const active = probe(zone.isDragActive);
    const drag = { preventDefault() {}, dataTransfer: { types: ['Files'] } } as unknown as DragEvent;
    zone.rootProps.onDragEnter(drag);
    zone.rootProps.onDragLeave(drag);
    expect(active.seen).toEqual([false, true, false]);

    zone.open();
    expect(click).toHaveBeenCalledTimes(1);
    const png = new File(['x'], 'a.png', { type: 'image/png' });
    const pdf = new File(['x'], 'b.pdf', { type: 'application/pdf' });
    zone.inputProps.onChange({ target: { files: [png, pdf], value: '' } } as unknown as Event);
    expect(onDrop).toHaveBeenCalledWith([{ file: png }], [expect.objectContaining({ file: pdf, code: 'file-invalid-type' })]);

    setDisabled(true);
    expect(attributes.seen).toEqual([[0, false], [-1, true]]);
    expect(zone.rootProps['aria-disabled']).toBe(true);
    zone.open();
    expect(click).toHaveBeenCalledTimes(1);
    attributes.stop();
    active.stop();
    // Disposed: the input is let go of.
    setDisabled(false);
    stop();
    zone.open();
    expect(click).toHaveBeenCalledTimes(1);
  });

  it("takes a route's rules from the endpoint's GET once mounted; a rule given wins", async () => {
    // The endpoint's GET is a stand-in here (what `createUploadHandler({ routes })` answers), as in React's
    // test of useRouteRules; no page of the browser suites uses a route.
    const answer: RouteRulesResponse = {
      routes: { avatar: { allowedContentTypes: ['image/*'], maxFileSize: 4, maxFiles: 1, strategies: ['presigned'] } },
    };
    const fetch = vi.fn(async (url: string) => (url === '/api/uploads' ? Response.json(answer) : new Response(null, { status: 404 })));
    vi.stubGlobal('fetch', fetch);
    const onDrop = vi.fn();
    const [options, setOptions] = createSignal<DropZoneOptions>({ onDrop, endpoint: '/api/uploads' });
    const { zone, stop } = createRoot((dispose) => ({ zone: createDropZone(options), stop: dispose }));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fetch).not.toHaveBeenCalled();
    setOptions({ onDrop, endpoint: '/api/uploads', route: 'avatar', multiple: false });
    await vi.waitFor(() => expect(zone.inputProps.accept).toBe('image/*'));
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(zone.inputProps.multiple).toBe(false);
    const big = new File(['12345'], 'big.png', { type: 'image/png' });
    const small = new File(['1'], 'small.png', { type: 'image/png' });
    zone.inputProps.onChange({ target: { files: [big, small], value: '' } } as unknown as Event);
    expect(onDrop).toHaveBeenCalledWith([{ file: small }], [expect.objectContaining({ file: big, code: 'file-too-large' })]);
    setOptions({ onDrop, endpoint: '/api/uploads', route: 'avatar', accept: 'image/png' });
    expect(zone.inputProps.accept).toBe('image/png');
    expect(fetch).toHaveBeenCalledTimes(1);
    stop();
  });
});
