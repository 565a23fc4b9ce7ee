// @vitest-environment jsdom
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { compileModule } from 'svelte/compiler';
import { describe, expect, it, vi } from 'vitest';
import { standInUploader } from '../../../test/stand-in-uploader';
import { createDropZone } from './create-drop-zone';
import { createS3Upload } from './create-s3-upload';

// Node resolves `svelte/reactivity` to Svelte's server build, where nothing is reactive: the tests take its
// browser build, as a bundler does for a page (Svelte's own file, found through its package.json).
vi.mock('svelte/reactivity', async () => {
  const { createRequire } = await import('node:module');
  const root = createRequire(import.meta.url).resolve('svelte/package.json').replace(/package\.json$/, '');
  return import(/* @vite-ignore */ `${root}src/reactivity/index-client.js`);
});

/**
 * A `$effect` that records what it reads, compiled by Svelte's own compiler from a `.svelte.js` module
 * (runes exist only in compiled code), written in a scratch folder of the package (so that it resolves the same `svelte` as the code under test).
 */
async function effectProbe(): Promise<(read: () => unknown) => { seen: unknown[]; stop: () => void }> {
  const source = `export function probe(read) {
    const seen = [];
    const stop = $effect.root(() => { $effect(() => { seen.push(read()); }); });
    return { seen, stop };
  }`;
  const { js } = compileModule(source, { filename: 'probe.svelte.js', generate: 'client' });
  const dir = await mkdtemp(join(import.meta.dirname, '.probe-'));
  await writeFile(join(dir, 'probe.js'), js.code);
  try {
    return ((await import(/* @vite-ignore */ join(dir, 'probe.js'))) as { probe: (read: () => unknown) => { seen: unknown[]; stop: () => void } }).probe;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('createS3Upload (Svelte)', () => {
  it('is reactive in an $effect: each change of the files reruns it', async () => {
    const probe = await effectProbe();
    const { uploader, finishes } = standInUploader();
    const upload = createS3Upload({ uploader, concurrency: 1 });
    const { seen, stop } = probe(() => upload.files.map((file) => file.status).join(','));
    await vi.waitFor(() => expect(seen).toEqual(['']));
    upload.addFiles([new File(['a'], 'a.png'), new File(['bb'], 'b.png')]);
    await vi.waitFor(() => expect(seen.at(-1)).toBe('uploading,queued'));
    finishes[0]!();
    await vi.waitFor(() => expect(seen.at(-1)).toBe('done,uploading'));
    stop();
    upload.cancel();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(seen.at(-1)).toBe('done,uploading');
  });

  it('gives the same state and actions as the React hook, read outside any effect', async () => {
    const { uploader, finishes } = standInUploader();
    const upload = createS3Upload({ uploader, concurrency: 1 });
    upload.addFiles([new File(['a'], 'a.png'), new File(['bb'], 'b.png')]);
    expect(upload.files.map((file) => file.status)).toEqual(['uploading', 'queued']);
    expect(upload.summary.size).toBe(3);
    finishes[0]!();
    upload.cancel(upload.files[1]!.id);
    await vi.waitFor(() => expect(upload.files.map((file) => file.status)).toEqual(['done', 'aborted']));
    upload.retry(upload.files[1]!.id);
    expect(upload.files[1]!.status).toBe('uploading');
    const second = standInUploader();
    upload.setOptions({ uploader: second.uploader });
    upload.remove(upload.files[1]!.id);
    upload.addFiles([new File(['c'], 'c.png')]);
    expect(second.finishes).toHaveLength(1);
    upload.resetFiles();
    expect(upload.files).toEqual([]);
  });
});

describe('createDropZone (Svelte)', () => {
  it('spreads root and input props, is drag-active reactively, takes picked files by the rules', async () => {
    const probe = await effectProbe();
    const onDrop = vi.fn();
    let disabled = false;
    const zone = createDropZone(() => ({ accept: 'image/*', disabled, onDrop }));
    expect(zone.rootProps).toMatchObject({ role: 'button', tabindex: 0, 'aria-disabled': undefined });
    expect(zone.inputProps).toMatchObject({ type: 'file', multiple: true, accept: 'image/*', style: 'display: none' });
    const { seen, stop } = probe(() => zone.isDragActive);
    await vi.waitFor(() => expect(seen).toEqual([false]));
    const drag = { preventDefault() {}, dataTransfer: { types: ['Files'] } } as unknown as DragEvent;
    zone.rootProps.ondragenter(drag);
    await vi.waitFor(() => expect(seen).toEqual([false, true]));
    zone.rootProps.ondragleave(drag);
    await vi.waitFor(() => expect(seen).toEqual([false, true, false]));
    stop();

    const png = new File(['x'], 'a.png', { type: 'image/png' });
    const pdf = new File(['x'], 'b.pdf', { type: 'application/pdf' });
    zone.inputProps.onchange({ target: { files: [png, pdf], value: '' } } as unknown as Event);
    expect(onDrop).toHaveBeenCalledWith([{ file: png }], [expect.objectContaining({ file: pdf, code: 'file-invalid-type' })]);
    disabled = true;
    expect(zone.rootProps).toMatchObject({ tabindex: -1, 'aria-disabled': true });
    expect(zone.inputProps.disabled).toBe(true);
  });
});
