// @vitest-environment jsdom
import { computed, Injector, runInInjectionContext, type EnvironmentInjector } from '@angular/core';
import { describe, expect, it, vi } from 'vitest';
import { standInUploader } from '../../../test/stand-in-uploader';
import { injectS3Upload, type S3UploadOptions } from './inject-s3-upload';
import { createRouteHooks } from './route-hooks';

/** An injector (as a component's or the app's) and the upload made in its context. */
function inject(options: S3UploadOptions) {
  const injector = Injector.create({ providers: [] }) as EnvironmentInjector;
  const upload = runInInjectionContext(injector, () => injectS3Upload(options));
  return { injector, upload };
}

const statuses = (files: readonly { status: string }[]) => files.map((file) => file.status);

describe('injectS3Upload (Angular)', () => {
  it('gives each file from queued to done as signals, with the summary', async () => {
    const { uploader, finishes } = standInUploader();
    const { injector, upload } = inject({ uploader, concurrency: 1 });
    upload.addFiles([new File(['a'], 'a.png'), new File(['bb'], 'b.png')]);
    // The tracker tells of changes at most once per animation frame: the signals change then.
    await vi.waitFor(() => expect(statuses(upload.files())).toEqual(['uploading', 'queued']));
    expect(upload.summary().count.queued).toBe(1);
    const first = upload.files()[0];
    finishes[0]!();
    await vi.waitFor(() => expect(statuses(upload.files())).toEqual(['done', 'uploading']));
    upload.cancel();
    await vi.waitFor(() => expect(upload.files()[1]?.status).toBe('aborted'));
    expect(upload.files()[0]).not.toBe(first); // a new object for the file that changed
    const done = upload.files()[0];
    upload.retry(upload.files()[1]!.id);
    await vi.waitFor(() => expect(upload.files()[1]!.status).toBe('uploading'));
    expect(upload.files()[0]).toBe(done); // the same object for the file that did not
    upload.resetFiles();
    await vi.waitFor(() => expect(upload.files()).toHaveLength(0));
    injector.destroy();
  });

  it('feeds a computed signal, which follows the files', async () => {
    const { uploader, finishes } = standInUploader();
    const { injector, upload } = inject({ uploader });
    const done = computed(() => upload.summary().count.done);
    upload.addFiles([new File(['a'], 'a.png')]);
    await vi.waitFor(() => expect(upload.files()[0]?.status).toBe('uploading'));
    expect(done()).toBe(0);
    finishes[0]!();
    await vi.waitFor(() => expect(done()).toBe(1));
    injector.destroy();
  });

  it('stops listening when its injector is destroyed; setOptions applies to the files added after', async () => {
    const first = standInUploader();
    const second = standInUploader();
    const { injector, upload } = inject({ uploader: first.uploader });
    upload.setOptions({ uploader: second.uploader });
    upload.addFiles([new File(['a'], 'a.png')]);
    expect([first.finishes.length, second.finishes.length]).toEqual([0, 1]);
    await vi.waitFor(() => expect(upload.files()).toHaveLength(1));
    injector.destroy();
    upload.addFiles([new File(['b'], 'b.png')]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(upload.files()).toHaveLength(1);
  });

  it("throws Angular's NG0203 outside an injection context", () => {
    expect(() => injectS3Upload()).toThrow(/NG0203/);
  });

  it('createRouteHooks hands out injectS3Upload itself', () => {
    expect(createRouteHooks().injectS3Upload).toBe(injectS3Upload);
  });
});
