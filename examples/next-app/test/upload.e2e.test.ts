import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { LOCAL_S3_CREDENTIALS } from '@upbeam/local-s3';
import { launchBrowser, openPage as openExamplePage, progressSeen, type TestBrowser } from '@upbeam/test-browser';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The Next.js example as a user runs it after `pnpm build`: `pnpm start` (scripts/with-local-s3.ts, which
// starts the embedded storage and then `next start`) as a child process, the page in headless chromium, a
// file picked on the page, and the bytes read back from the storage. The storage listens on another port
// than the page, so the upload is cross-origin and the bucket's CORS rule is exercised.

const appDir = fileURLToPath(new URL('..', import.meta.url));
const FILE_SIZE = 8 * 1024 * 1024 + 123;
/** Upload bandwidth the page gets (DevTools network emulation), bytes per second: ~2 s for the file. */
const UPLOAD_BYTES_PER_SECOND = 4 * 1024 * 1024;
const BUCKET = 'upbeam-local';
const READY_TIMEOUT_MS = 60_000;

let app: ChildProcess | undefined;
let output = '';
let origin: string;
let s3: S3Client;
let browser: TestBrowser;
let workDir: string;
let filePath: string;
let fileBytes: Buffer;

/** A port that was free a moment ago on 127.0.0.1. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitUntilServing(url: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (app?.exitCode !== null || app.signalCode !== null) throw new Error(`the app exited:\n${output}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the app did not answer within ${READY_TIMEOUT_MS} ms:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Stops the app's process group (the wrapper, `next start` and the storage in it) by its id. */
async function stopApp(): Promise<void> {
  const child = app;
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }, 10_000);
  await exited;
  clearTimeout(timer);
}

beforeAll(async () => {
  if (!existsSync(join(appDir, '.next', 'BUILD_ID'))) {
    throw new Error('examples/next-app is not built: run `pnpm run build` first (this test starts the built app).');
  }
  workDir = await mkdtemp(join(tmpdir(), 'upbeam-next-e2e-'));
  fileBytes = randomBytes(FILE_SIZE);
  filePath = join(workDir, 'holiday video.bin');
  await writeFile(filePath, fileBytes);

  const [port, storagePort] = [await freePort(), await freePort()];
  origin = `http://127.0.0.1:${port}`;
  app = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/with-local-s3.ts', 'start', '--port', String(port), '--hostname', '127.0.0.1'],
    {
      cwd: appDir,
      // Its own process group, so that teardown stops `next start` too, by the group's id.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        // Blank settings win over a developer's .env.local (Next.js's loader keeps variables already set):
        // the app must take its embedded-storage default.
        S3_UPLOAD_KEY: '',
        S3_UPLOAD_SECRET: '',
        S3_UPLOAD_BUCKET: '',
        S3_UPLOAD_REGION: '',
        LOCAL_S3_PORT: String(storagePort),
        LOCAL_S3_DIR: join(workDir, 's3'),
      },
    },
  );
  app.stdout!.on('data', (part: Buffer) => (output += part.toString()));
  app.stderr!.on('data', (part: Buffer) => (output += part.toString()));
  s3 = new S3Client({
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${storagePort}`,
    forcePathStyle: true,
    credentials: LOCAL_S3_CREDENTIALS,
  });
  [browser] = await Promise.all([launchBrowser(), waitUntilServing(origin)]);
});

afterAll(async () => {
  await browser?.close();
  s3?.destroy();
  await stopApp();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

const openPage = () => openExamplePage(browser.context, origin, UPLOAD_BYTES_PER_SECOND);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function storedBytes(key: string): Promise<Uint8Array> {
  const object = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return object.Body!.transformToByteArray();
}

describe('Next.js example (next start) in chromium, embedded storage', () => {
  it('offers both strategies, presigned first', async () => {
    const page = await openPage();
    await expect.poll(() => page.getByLabel('Presigned URL (one PUT)').isChecked()).toBe(true);
    expect(await page.getByLabel('Temporary token (multipart)').isChecked()).toBe(false);
    await page.close();
  });

  it('presigned: a file picked on the page climbs to 100% and storage holds the same bytes', async () => {
    const page = await openPage();
    const prepared = page.waitForResponse((response) => response.url().endsWith('/api/s3-upload'));
    await page.setInputFiles('[data-testid="file-input"]', filePath);
    const answer = await (await prepared).json();
    expect(answer.url).toContain('X-Amz-Signature=');
    const item = page.getByTestId('upload');
    await expect.poll(() => item.getAttribute('data-status'), { timeout: 60_000 }).toBe('done');

    const seen = await progressSeen(page);
    expect(seen.filter((value) => value > 0 && value < 100).length, `progress: ${seen.join(', ')}`).toBeGreaterThanOrEqual(1);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)).toBe(100);
    expect(await page.locator('progress').getAttribute('value')).toBe('100');

    expect(answer.key).toMatch(/^next-s3-uploads\/[A-Za-z0-9_-]{21}\/holiday-video\.bin$/);
    expect(await page.getByTestId('object-url').textContent()).toContain(answer.key);
    const stored = await storedBytes(answer.key);
    expect(stored.byteLength).toBe(FILE_SIZE);
    expect(sha256(stored)).toBe(sha256(fileBytes));
    await page.close();
  });

  it('temporary-token: the same file in parts through the local STS stand-in, same bytes', async () => {
    const page = await openPage();
    await page.getByLabel('Temporary token (multipart)').check();
    const prepared = page.waitForResponse((response) => response.url().endsWith('/api/s3-upload'));
    await page.setInputFiles('[data-testid="file-input"]', filePath);
    const answer = await (await prepared).json();
    expect(answer.token.Credentials.SessionToken).toBeTruthy();
    const item = page.getByTestId('upload');
    await expect.poll(() => item.getAttribute('data-status'), { timeout: 60_000 }).toBe('done');
    expect((await progressSeen(page)).at(-1)).toBe(100);
    expect(sha256(await storedBytes(answer.key))).toBe(sha256(fileBytes));
    await page.close();
  });
});
