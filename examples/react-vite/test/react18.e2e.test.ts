import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import {
  ENGINES,
  launchBrowser,
  openExamplePage,
  startThrottleProxy,
  type TestBrowser,
  type ThrottleProxy,
} from '@upbeam/test-browser';
import { createUploadHandler } from '@upbeam/upload-server';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExample, type RunningExample } from './example-server';
import { SELECTORS } from './selectors';

// `@upbeam/upload-react` declares `react >= 18`. The example page is React 19; here the same page is built
// against React 18 (the npm aliases `react-18` and `react-dom-18`, swapped in by a Vite alias for every
// import of `react` and `react-dom`, the hook's own included) and a file is uploaded from it in each engine.

const exampleDir = fileURLToPath(new URL('..', import.meta.url));
const FILE_SIZE = 6 * 1024 * 1024 + 7;
const UPLOAD_BYTES_PER_SECOND = 4 * 1024 * 1024;

let outDir: string;
let example: RunningExample;
let proxy: ThrottleProxy;
let filePath: string;
let fileBytes: Buffer;

/** The folder of an installed package of the example, e.g. its `react-18` alias. */
function packageDir(name: string): string {
  return dirname(createRequire(join(exampleDir, 'package.json')).resolve(`${name}/package.json`));
}

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'upbeam-react18-'));
  await build({
    root: exampleDir,
    configFile: join(exampleDir, 'vite.config.ts'),
    logLevel: 'warn',
    // Under vitest (NODE_ENV=test) this is React's development build, JSX dev runtime included: the hook's
    // code is the same, and React's own checks (hook order, keys) run too.
    build: { outDir, emptyOutDir: true },
    resolve: {
      alias: [
        { find: /^react-dom(\/.*)?$/, replacement: `${packageDir('react-dom-18')}$1` },
        { find: /^react(\/.*)?$/, replacement: `${packageDir('react-18')}$1` },
      ],
    },
  });
  example = await startExample(outDir);
  proxy = await startThrottleProxy(example.storage.endpoint, UPLOAD_BYTES_PER_SECOND);
  example.setUploadHandler(createUploadHandler({ ...example.settings, endpoint: proxy.url, stsClient: example.storage.stsClient }));
  fileBytes = randomBytes(FILE_SIZE);
  filePath = join(outDir, 'notes.txt');
  await writeFile(filePath, fileBytes);
});

afterAll(async () => {
  await proxy?.close();
  await example?.close();
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

it('the page is built with React 18, not 19', async () => {
  const assets = join(outDir, 'assets');
  const scripts = (await readdir(assets)).filter((name) => name.endsWith('.js'));
  const code = (await Promise.all(scripts.map((name) => readFile(join(assets, name), 'utf8')))).join('\n');
  // React and react-dom stamp their version in the bundle (`"18.3.1"`, quoted one way or another).
  const versions = [...new Set(code.match(/(?<=["'`])1[89]\.\d+\.\d+(?=["'`])/g))];
  expect(versions).toEqual([expect.stringMatching(/^18\./)]);
});

describe.each(ENGINES)('example page on React 18 in %s', (engine) => {
  let browser: TestBrowser;

  beforeAll(async () => {
    browser = await launchBrowser(engine);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('presigned: progress climbs to 100 and storage holds the same bytes', async () => {
    const page = await openExamplePage(browser, example.origin, SELECTORS.fileInput);
    try {
      await page.setInputFile(SELECTORS.fileInput, filePath);
      await expect.poll(() => page.attribute(SELECTORS.upload, 'data-status'), { timeout: 60_000 }).toBe('done');
      const seen = await page.progressSeen();
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
      expect(seen.at(-1)).toBe(100);
      const url = (await page.text(SELECTORS.objectUrl))!;
      const key = decodeURIComponent(url.slice(`${proxy.url}/${example.storage.bucket}/`.length));
      const object = await example.s3.send(new GetObjectCommand({ Bucket: example.storage.bucket, Key: key }));
      expect(sha256(await object.Body!.transformToByteArray())).toBe(sha256(fileBytes));
      expect(object.ContentType).toBe('text/plain');
    } finally {
      await page.close();
    }
  });
});
