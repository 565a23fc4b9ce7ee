/**
 * `pnpm --filter @upbeam/example-react-vite screenshot`: the README's picture of the example, taken in
 * chromium mid-upload (upload bandwidth bounded), so that it shows what a user sees: thumbnails,
 * per-file and overall progress with speed and time left, a finished file's URL, a cancelled file.
 * Needs the page built first (`pnpm build`). Writes `docs/example.png` at the repository's root.
 */
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { launchChromiumContext, openChromiumPage } from '@upbeam/test-browser';
import { startExample } from '../test/example-server';
import { definePictureMaker, type PictureMaker } from './page-pictures';

const OUTPUT = fileURLToPath(new URL('../../../docs/example.png', import.meta.url));
/**
 * Upload bandwidth, bytes per second (chromium's network emulation, which the page's progress follows):
 * slow enough that the picture catches files mid-way.
 */
const BYTES_PER_SECOND = 2 * 1024 * 1024;

const example = await startExample();
const chromium = await launchChromiumContext();
try {
  const page = await openChromiumPage(chromium.context, example.origin, BYTES_PER_SECOND);
  await page.setViewportSize({ width: 900, height: 1150 });
  await page.waitForSelector('[data-upbeam="dropzone"]');
  // tsx keeps function names with a `__name` helper that the page lacks.
  await page.evaluate('globalThis.__name = (fn) => fn');
  await page.evaluate(definePictureMaker);
  await page.evaluate(async () => {
    const picture = (window as unknown as { makePicture: PictureMaker }).makePicture;
    const transfer = new DataTransfer();
    transfer.items.add(await picture('sunset.png', '#f97316', '#7c3aed', 200));
    transfer.items.add(await picture('harbour.png', '#0ea5e9', '#1e3a8a', 1200));
    transfer.items.add(await picture('forest.png', '#22c55e', '#14532d', 1400));
    transfer.items.add(new File([new Uint8Array(3_000_000)], 'report.pdf', { type: 'application/pdf' }));
    transfer.items.add(await picture('family.png', '#facc15', '#be123c', 1300));
    const zone = document.querySelector('[data-upbeam="dropzone"]')!;
    for (const type of ['dragenter', 'dragover', 'drop']) zone.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
  });
  await page.waitForSelector('[data-upbeam="row"][data-status="done"]', { timeout: 60_000 });
  // The last file, still waiting: cancelled, to show the calm "Cancelled" state and its Retry button.
  await page.locator('[data-upbeam="row"]').last().locator('[data-action="cancel"]').click();
  await page.waitForTimeout(1200);
  await mkdir(new URL('../../../docs/', import.meta.url), { recursive: true });
  await page.screenshot({ path: OUTPUT, fullPage: true });
  console.log(`Wrote ${OUTPUT}`);
} finally {
  await chromium.close();
  await example.close();
}
