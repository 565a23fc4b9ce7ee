import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExample, type RunningExample } from './example-server';

// The example's `/api/object-url` driven with curl, as an attacker would: it signs a GET URL of a key the
// browser names, on a private bucket. It must sign only the signed-in user's own keys: not another user's
// upload, not `next-s3-uploads/../private/secret.txt` (which passed the old guard `startsWith('next-s3-uploads/')`
// and, on local-s3, read the object beyond the prefix), not for a request without a session.

const run = promisify(execFile);
let example: RunningExample;
let dir: string;

/** curl, with a cookie jar (the browser's session) when given one; `--path-as-is` keeps a `..` as sent. */
async function curl(args: string[], jar?: string): Promise<{ status: number; body: string }> {
  const cookies = jar ? ['-b', jar, '-c', jar] : [];
  const { stdout } = await run('curl', ['-s', '--path-as-is', '-w', '\n%{http_code}', ...cookies, ...args]);
  const end = stdout.lastIndexOf('\n');
  return { status: Number(stdout.slice(end + 1)), body: stdout.slice(0, end) };
}

/** A browser's session: loads the page (which signs it in), then prepares an upload; the key it got. */
async function uploadAs(jar: string, filename: string): Promise<string> {
  expect((await curl([`${example.origin}/`], jar)).status).toBe(200);
  const body = JSON.stringify({ filename, filetype: 'image/png', filesize: 5, _upload: { strategy: 'presigned' } });
  const prepared = await curl(['-X', 'POST', '-H', 'content-type: application/json', '--data-binary', body, `${example.origin}/api/s3-upload`], jar);
  expect(prepared.status, prepared.body).toBe(200);
  const { key } = JSON.parse(prepared.body) as { key: string };
  await example.s3.send(new PutObjectCommand({ Bucket: example.storage.bucket, Key: key, Body: `${filename}!` }));
  return key;
}

const objectUrl = (key: string, jar?: string) => curl([`${example.origin}/api/object-url?key=${encodeURIComponent(key)}`], jar);

beforeAll(async () => {
  example = await startExample();
  dir = await mkdtemp(join(tmpdir(), 'upbeam-object-url-'));
  await example.s3.send(new PutObjectCommand({ Bucket: example.storage.bucket, Key: 'private/secret.txt', Body: 'the secret' }));
});
afterAll(async () => {
  await example?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('/api/object-url signs only the signed-in user’s own keys (curl)', () => {
  let alice: string;
  let bob: string;
  let aliceKey: string;

  beforeAll(async () => {
    alice = join(dir, 'alice.jar');
    bob = join(dir, 'bob.jar');
    aliceKey = await uploadAs(alice, 'alice.png');
    await uploadAs(bob, 'bob.png');
  });

  it('gives the owner a URL that opens her upload', async () => {
    const answer = await objectUrl(aliceKey, alice);
    expect(answer.status).toBe(200);
    const { url } = JSON.parse(answer.body) as { url: string };
    expect((await curl([url])).body).toBe('alice.png!');
  });

  it("refuses another user's key (404), and a request with no session", async () => {
    expect((await objectUrl(aliceKey, bob)).status).toBe(404);
    expect((await objectUrl(aliceKey)).status).toBe(404);
  });

  it('stores each upload under its user; a preparation with no session is refused (401)', async () => {
    expect(aliceKey).toMatch(/^next-s3-uploads\/[0-9a-f-]{36}\/[A-Za-z0-9_-]{21}\/alice\.png$/);
    const body = JSON.stringify({ filename: 'x.png', filetype: 'image/png', filesize: 5, _upload: { strategy: 'presigned' } });
    const refused = await curl(['-X', 'POST', '-H', 'content-type: application/json', '--data-binary', body, `${example.origin}/api/s3-upload`]);
    expect(refused.status).toBe(401);
  });

  it('refuses a ".." key that passed the prefix guard; the secret beyond the prefix stays unread', async () => {
    for (const key of ['next-s3-uploads/../private/secret.txt', `${aliceKey.split('/').slice(0, 2).join('/')}/../../private/secret.txt`]) {
      const answer = await objectUrl(key, alice);
      if (answer.status === 200) {
        // Before: a signed URL; fetched as sent, local-s3 answered the secret.
        const { url } = JSON.parse(answer.body) as { url: string };
        expect((await curl([url])).body, key).not.toBe('the secret');
      }
      expect(answer.status, key).toBe(404);
    }
  });

  it('refuses keys the handler never makes: ".", empty segments, a backslash', async () => {
    const mine = aliceKey.split('/').slice(0, 2).join('/');
    for (const key of [`${mine}/./x.png`, `${mine}//x.png`, `${mine}\\..\\x.png`, '', 'secrets/a.png']) {
      expect((await objectUrl(key, alice)).status, key).toBe(404);
    }
  });
});
