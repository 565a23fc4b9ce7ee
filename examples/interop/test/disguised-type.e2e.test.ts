import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { ENGINES, launchBrowser, type TestBrowser, type TestPage } from '@upbeam/test-browser';
import { createUploadHandler } from '@upbeam/upload-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Hole 2 of the 2026-11-24 review, in the browsers that run it: an object stored as
// `image/png;x=1,text/html` is an HTML page to chromium and Firefox (they take the last type of the list), and
// its script runs from the bucket's origin. The handler now refuses such a type before anything is signed,
// and what it signs for a legitimate parameterized type keeps the object an image.

const PAGE = '<!doctype html><title>stored</title><script>document.title = "script ran"</script>';
const engines = ENGINES.filter((engine) => engine === 'chromium' || engine === 'firefox');

describe.each(engines)('a disguised HTML type in %s', (engine) => {
  let browser: TestBrowser;
  let page: TestPage;
  let storage: LocalS3;
  let admin: S3Client;

  beforeAll(async () => {
    storage = await startLocalS3();
    admin = storage.createClient();
    browser = await launchBrowser(engine);
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    admin?.destroy();
    await storage?.close();
  });

  /** Opens the object in the browser, as anyone with its URL would, and reads the document's title. */
  async function titleOf(key: string): Promise<string> {
    await page.goto(`${storage.endpoint}/${storage.bucket}/${key}`);
    // Give a script the time to run, whatever the engine's load event covers.
    return page.evaluate(() => new Promise<string>((resolve) => setTimeout(() => resolve(document.title), 200)), null);
  }

  it('runs the script of an object stored with that type (why the handler refuses it)', async () => {
    const key = 'attack/disguised.png';
    await admin.send(new PutObjectCommand({ Bucket: storage.bucket, Key: key, Body: PAGE, ContentType: 'image/png;x=1,text/html' }));
    expect(await titleOf(key)).toBe('script ran');
  });

  it('the handler refuses the type (400); a parameterized image type it signs keeps the object an image', async () => {
    const handler = createUploadHandler({ ...storage.handlerSettings, allowedContentTypes: ['image/*'], maxFileSize: 1024 * 1024 });
    const prepare = (filetype: string) =>
      handler(
        new Request('http://127.0.0.1/api/s3-upload', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ filename: 'cat.png', filetype, filesize: PAGE.length, _upload: { strategy: 'presigned' } }),
        }),
      );
    expect((await prepare('image/png;x=1,text/html')).status).toBe(400);
    expect((await prepare('image/png; a="b",image/svg+xml')).status).toBe(400);

    const signed = (await (await prepare('image/png; x=1')).json()) as { key: string; url: string; headers: Record<string, string> };
    const put = await fetch(signed.url, { method: 'PUT', headers: signed.headers, body: PAGE });
    expect(put.status).toBe(200);
    expect(await titleOf(signed.key)).not.toBe('script ran');
  });
});
