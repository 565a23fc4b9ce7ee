/**
 * Pictures of the ready-made `<Uploader />` (`@upbeam/upload-react/components`) in its light and dark
 * themes, taken in chromium from the example's components page mid-upload (upload bandwidth bounded), so
 * that they show every state a user meets: images with thumbnails uploading with speed and time left, a
 * stored file, a paused multipart upload, a cancelled file, a failed one with its reason, and a file
 * turned away. The example must be built first (`pnpm build`).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { launchChromiumContext, openChromiumPage } from '@upbeam/test-browser';
import { createUploadHandler } from '@upbeam/upload-server';
import { startExample } from '../test/example-server';
import { definePictureMaker, type PictureMaker } from './page-pictures';

/** Upload bandwidth, bytes per second: slow enough that the picture catches files mid-way. */
const BYTES_PER_SECOND = 1024 * 1024;
/** The file the endpoint refuses, to show a failed row. */
const REFUSED = 'contract-draft.docx';

export const THEMES = ['light', 'dark'] as const;

/** Takes the pictures into `outDir` (`uploader-light.png`, `uploader-dark.png`); returns their paths. */
export async function takeComponentScreenshots(outDir: string): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const example = await startExample();
  const handler = createUploadHandler(example.settings);
  example.setUploadHandler(async (request) => {
    const { filename } = (await request.clone().json()) as { filename?: string };
    if (filename === REFUSED) return Response.json({ error: 'This workspace takes no more Word files.' }, { status: 403 });
    return handler(request);
  });
  const chromium = await launchChromiumContext();
  const written: string[] = [];
  try {
    for (const theme of THEMES) {
      const page = await openChromiumPage(chromium.context, `${example.origin}/components.html?component=uploader&theme=${theme}`, BYTES_PER_SECOND);
      await page.setViewportSize({ width: 760, height: 900 });
      await page.waitForSelector('[data-upbeam="dropzone"]');
      // tsx keeps function names with a `__name` helper that the page lacks.
      await page.evaluate('globalThis.__name = (fn) => fn');
      await page.evaluate(definePictureMaker);
  await page.evaluate(definePictureMaker);
      await page.evaluate(async (refused) => {
        const picture = (window as unknown as { makePicture: PictureMaker }).makePicture;
    const transfer = new DataTransfer();
        transfer.items.add(await picture('sunset.png', '#f97316', '#7c3aed', 160));
        transfer.items.add(new File([new Uint8Array(12 * 1024 * 1024)], 'site-survey.mp4', { type: 'video/mp4' }));
        transfer.items.add(await picture('harbour.png', '#0ea5e9', '#1e3a8a', 1400));
        transfer.items.add(new File([new Uint8Array(40_000)], refused, { type: 'application/octet-stream' }));
        transfer.items.add(new File([new Uint8Array(2_000_000)], 'report.pdf', { type: 'application/pdf' }));
        transfer.items.add(new File([new Uint8Array(100 * 1024 * 1024)], 'raw-footage.mov', { type: 'video/quicktime' }));
        const zone = document.querySelector('[data-upbeam="dropzone"]')!;
        for (const type of ['dragenter', 'dragover', 'drop']) zone.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
      }, REFUSED);
      await page.waitForSelector('[data-upbeam="row"][data-status="done"]', { timeout: 60_000 });
      await page.waitForSelector('[data-upbeam="row"][data-status="error"]', { timeout: 60_000 });
      await page.locator('[data-action="pause"]').first().click();
      // The last file, still waiting: cancelled, to show the calm "Cancelled" state.
      await page.getByRole('button', { name: 'Cancel report.pdf' }).click();
      await page.waitForTimeout(1500);
      const path = join(outDir, `uploader-${theme}.png`);
      await page.screenshot({ path, fullPage: true });
      written.push(path);
      await page.close();
    }
  } finally {
    await chromium.close();
    await example.close();
  }
  return written;
}
