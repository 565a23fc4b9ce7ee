import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import type { PresignedUploadResponse, RouteRulesResponse } from '@upbeam/upload-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The docs' plain-Node routes samples (docs/samples/node-routes/, shown in the routes guide and getting started)
// run as a user runs them: `tsx server.ts` (and `tsx express.ts`) with the S3_UPLOAD_* variables of
// @upbeam/local-s3, each in its own process. This test's fetch plays the page: the routes' rules (GET), a
// preparation (POST) whose URL then stores a file, and a 405 for another method. The samples import the
// built packages (docs/node_modules), as the typecheck compiles them.

const root = join(import.meta.dirname, '../../..');
const samples = join(root, 'docs/samples/node-routes');
const tsx = join(root, 'node_modules/.bin/tsx');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts a sample; resolves once it printed its line (it listens), rejects if it exits first or stays silent 15 s. */
function startSample(file: string, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(tsx, [join(samples, file)], { cwd: samples, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${file} printed nothing in 15 s: ${output}`)), 15_000);
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Upload endpoint on')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${file} exited (${code}): ${output}`));
    });
  });
}

function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

let storage: LocalS3;
let reader: S3Client;

beforeAll(async () => {
  storage = await startLocalS3();
  reader = storage.createClient();
});

afterAll(async () => {
  reader?.destroy();
  await storage?.close();
});

describe.each(['server.ts', 'express.ts'])('docs/samples/node-routes/%s', (file) => {
  let child: ChildProcess | undefined;
  let endpoint: string;

  beforeAll(async () => {
    const port = await freePort();
    endpoint = `http://127.0.0.1:${port}/api/s3-upload`;
    child = await startSample(file, { ...storage.env, PORT: String(port) });
  }, 30_000);

  afterAll(() => stop(child));

  it("GET answers the routes' public rules", async () => {
    const response = await fetch(endpoint);
    expect(response.status).toBe(200);
    const { routes } = (await response.json()) as RouteRulesResponse;
    expect(routes.avatar).toMatchObject({ allowedContentTypes: ['image/*'], maxFileSize: 4 * 1024 * 1024, maxFiles: 1 });
    expect(routes.documents).toMatchObject({ allowedContentTypes: ['application/pdf'], maxFiles: 20 });
  });

  it('POST prepares an upload of a route, whose URL stores the file', async () => {
    const bytes = new TextEncoder().encode(`a picture sent through ${file}`);
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ route: 'avatar', filename: 'me.png', filetype: 'image/png', filesize: bytes.length, _upload: { strategy: 'presigned' } }),
    });
    expect(response.status).toBe(200);
    const prepared = (await response.json()) as PresignedUploadResponse;
    const put = await fetch(prepared.url, { method: 'PUT', headers: prepared.headers, body: bytes });
    expect(put.status).toBe(200);
    const stored = await reader.send(new GetObjectCommand({ Bucket: storage.bucket, Key: prepared.key }));
    expect(await stored.Body!.transformToString()).toBe(`a picture sent through ${file}`);
  });

  it('another method gets 405, and a size over the route limit 413', async () => {
    const other = await fetch(endpoint, { method: 'DELETE' });
    expect(other.status).toBe(405);
    const tooLarge = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ route: 'avatar', filename: 'big.png', filetype: 'image/png', filesize: 5 * 1024 * 1024, _upload: { strategy: 'presigned' } }),
    });
    expect(tooLarge.status).toBe(413);
  });
});
