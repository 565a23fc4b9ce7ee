/**
 * Pictures of two docs pages for the notes (docs/screenshots/docs-*.png), taken in headless chromium (Debian's,
 * through @upbeam/test-browser) from the built site served by `vitepress preview` on 127.0.0.1.
 *
 *   pnpm run docs:build && pnpm --filter @upbeam/docs docs:screenshots
 *
 * `DOCS_PORT` (default 4178) chooses the preview's port.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { launchChromiumContext } from '@upbeam/test-browser';

const docs = join(import.meta.dirname, '..');
const port = Number(process.env.DOCS_PORT ?? 4178);
const origin = `http://127.0.0.1:${port}`;
const PAGES = [
  { path: '/guide/getting-started', file: 'docs-getting-started.png' },
  { path: '/reference/api/@upbeam/upload-server/functions/createUploadHandler', file: 'docs-api-create-upload-handler.png' },
];

/** Waits until the preview answers (at most 30 s). */
async function waitForPreview(): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(origin)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`docs:screenshots: the preview did not answer on ${origin} within 30 s`);
}

const preview = spawn('pnpm', ['exec', 'vitepress', 'preview', '.', '--host', '127.0.0.1', '--port', String(port)], {
  cwd: docs,
  stdio: 'ignore',
  detached: true,
});
const chromium = await launchChromiumContext();
try {
  await waitForPreview();
  const page = await chromium.context.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  for (const { path, file } of PAGES) {
    await page.goto(origin + path, { waitUntil: 'networkidle' });
    await page.screenshot({ path: join(docs, 'screenshots', file) });
    console.log(`Wrote docs/screenshots/${file}`);
  }
} finally {
  await chromium.close();
  process.kill(-preview.pid!); // the preview's process group: pnpm and the vitepress it started
}
