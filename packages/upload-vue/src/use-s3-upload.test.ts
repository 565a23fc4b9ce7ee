// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { standInUploader } from '../../../test/stand-in-uploader';
import { createApp, defineComponent, h, nextTick, shallowRef, type App } from 'vue';
import { useDropZone, type UseDropZone } from './use-drop-zone';
import { useS3Upload, type UseS3Upload, type UseS3UploadOptions } from './use-s3-upload';

let app: App | undefined;
afterEach(() => {
  app?.unmount();
  app = undefined;
});

/** Mounts a component that calls the composables and renders the files; returns what they gave. */
function mount(options: UseS3UploadOptions, onDrop = vi.fn()) {
  let upload!: UseS3Upload;
  let zone!: UseDropZone;
  const host = document.createElement('div');
  app = createApp(
    defineComponent({
      setup() {
        upload = useS3Upload(options);
        zone = useDropZone({ accept: 'image/*', onDrop });
        return () =>
          h('div', zone.rootProps.value, [
            h('input', zone.inputProps.value),
            ...upload.files.value.map((file) => h('p', { 'data-status': file.status }, `${file.file.name} ${file.progress}`)),
          ]);
      },
    }),
  );
  app.mount(host);
  return { upload, zone, host };
}

describe('useS3Upload (Vue)', () => {
  it('renders each file from queued to done, with the summary', async () => {
    const { uploader, finishes } = standInUploader();
    const { upload, host } = mount({ uploader, concurrency: 1 });
    upload.addFiles([new File(['a'], 'a.png'), new File(['bb'], 'b.png')]);
    // The tracker tells of changes at most once per animation frame: the page shows them then.
    await vi.waitFor(() => expect([...host.querySelectorAll('p')].map((p) => p.dataset.status)).toEqual(['uploading', 'queued']));
    expect(upload.summary.value.count.queued).toBe(1);
    finishes[0]!();
    await vi.waitFor(() => expect(host.querySelector('p')?.dataset.status).toBe('done'));
    upload.cancel();
    await vi.waitFor(() => expect(host.querySelectorAll('p')[1]?.dataset.status).toBe('aborted'));
    upload.retry(upload.files.value[1]!.id);
    await vi.waitFor(() => expect(upload.files.value[1]!.status).toBe('uploading'));
    upload.remove(upload.files.value[1]!.id);
    upload.resetFiles();
    await vi.waitFor(() => expect(host.querySelectorAll('p')).toHaveLength(0));
  });

  it('applies a ref of options to the uploads added after a change', async () => {
    const first = standInUploader();
    const second = standInUploader();
    const options = shallowRef<UseS3UploadOptions>({ uploader: first.uploader });
    let upload!: UseS3Upload;
    app = createApp(defineComponent({ setup: () => ((upload = useS3Upload(options)), () => null) }));
    app.mount(document.createElement('div'));
    options.value = { uploader: second.uploader };
    await nextTick();
    upload.addFiles([new File(['a'], 'a.png')]);
    expect([first.finishes.length, second.finishes.length]).toEqual([0, 1]);
  });
});

describe('useDropZone (Vue)', () => {
  it('binds the root and the hidden input, takes picked files by the rules', async () => {
    const onDrop = vi.fn();
    const { zone, host } = mount({ uploader: standInUploader().uploader }, onDrop);
    const root = host.firstElementChild as HTMLElement;
    const input = root.querySelector('input')!;
    expect([root.getAttribute('role'), root.tabIndex, input.type, input.multiple, input.style.display]).toEqual(['button', 0, 'file', true, 'none']);
    const click = vi.spyOn(input, 'click').mockImplementation(() => {});
    root.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    zone.open();
    expect(click).toHaveBeenCalledTimes(2);
    const png = new File(['x'], 'a.png', { type: 'image/png' });
    const pdf = new File(['x'], 'b.pdf', { type: 'application/pdf' });
    Object.defineProperty(input, 'files', { value: [png, pdf], configurable: true });
    input.dispatchEvent(new Event('change'));
    expect(onDrop).toHaveBeenCalledWith([{ file: png }], [expect.objectContaining({ file: pdf, code: 'file-invalid-type' })]);
    expect(zone.isDragActive.value).toBe(false);
  });
});
