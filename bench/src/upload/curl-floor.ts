/**
 * The two floors of the upload benchmark, both curl on 127.0.0.1 to the same storage as the browser:
 * - `curl -T` of the whole file to the presigned PUT URL Upbeam's handler answers (one PutObject);
 * - the multipart floor: CreateMultipartUpload with the AWS SDK, UploadPart URLs presigned for every part,
 *   one curl process sending the parts (the same part size as the engine, `--parallel-max` = its queue size,
 *   connections reused), then CompleteMultipartUpload. What storage does with parts (s3rver rewrites the
 *   whole object on complete) sets a ceiling no multipart client passes: this floor measures it.
 * Both time the whole upload as the browser's figure does, the preparation (or create and presign) included;
 * `curl -T` counts curl's own `time_total` (not the process start), the multipart floor its wall time (one
 * process start, a few ms, against seconds of parts).
 */
import { execFile, spawn } from 'node:child_process';
import { open, mkdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { onClientCores } from '../lib/cores';
import type { Target } from './targets';

const execFileAsync = promisify(execFile);

/** Seconds a presigned UploadPart URL of the floor stays valid. */
const PART_URL_SECONDS = 3600;

/** One curl upload: its time and, for the multipart floor, how the time splits. */
export interface CurlSample {
  seconds: number;
  /** Multipart floor: seconds of the parts alone (curl's wall time), and of CreateMultipartUpload + presigning, and of CompleteMultipartUpload. */
  partsSeconds?: number;
  createSeconds?: number;
  completeSeconds?: number;
}

/** `curl -T` of the whole file to a presigned PUT URL from Upbeam's handler; checks and deletes the object. */
export async function curlPut(target: Target, filePath: string, size: number, timeoutMs: number): Promise<CurlSample> {
  const started = performance.now();
  const response = await target.upbeam(
    new Request('http://127.0.0.1/api/upbeam', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        filename: basename(filePath),
        filetype: 'application/octet-stream',
        filesize: size,
        _upload: { strategy: 'presigned' },
      }),
    }),
  );
  const answer = (await response.json()) as { url: string; key: string; headers: Record<string, string> };
  const prepareSeconds = (performance.now() - started) / 1000;
  // A signed header with an empty value (the handler signs `x-amz-tagging: ''` so a page cannot add tags) is
  // written `Name;`: curl reads `-H 'Name:'` as "remove this header" and would send a request storage refuses.
  const headers = Object.entries(answer.headers).flatMap(([name, value]) => ['-H', value === '' ? `${name};` : `${name}: ${value}`]);
  // `Expect:` off: curl would otherwise wait for a 100 Continue before sending the body.
  const { stdout } = await execFileAsync(
    ...onClientCores('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code} %{time_total}', '-T', filePath, '-H', 'Expect:', ...headers, answer.url]),
    { timeout: timeoutMs },
  );
  const [status, total] = stdout.trim().split(' ');
  const stored = await target.storedSize(answer.key);
  await target.remove(answer.key);
  if (status !== '200' || stored !== size) throw new Error(`curl -T: HTTP ${status}, stored ${stored} bytes of ${size}`);
  // curl's own time_total: the process start (tens of ms on a busy machine) is not the upload's.
  return { seconds: prepareSeconds + Number(total) };
}

/** The parts of one file, cut into files of their own (curl uploads whole files only). */
export interface PartFiles {
  partSize: number;
  paths: string[];
  remove(): Promise<void>;
}

/** Cuts `filePath` into parts of `partSize` bytes (the last one shorter) under `directory`; not timed. */
export async function cutParts(filePath: string, size: number, partSize: number, directory: string): Promise<PartFiles> {
  const folder = join(directory, `${basename(filePath)}.parts-${partSize}`);
  await mkdir(folder, { recursive: true });
  const source = await open(filePath, 'r');
  const paths: string[] = [];
  try {
    const buffer = Buffer.allocUnsafe(partSize);
    for (let offset = 0, number = 1; offset < size; offset += partSize, number++) {
      const length = Math.min(partSize, size - offset);
      await source.read(buffer, 0, length, offset);
      const path = join(folder, `part-${number}`);
      const part = await open(path, 'w');
      await part.write(buffer, 0, length);
      await part.close();
      paths.push(path);
    }
  } finally {
    await source.close();
  }
  return { partSize, paths, remove: () => rm(folder, { recursive: true, force: true }) };
}

/** A curl config line's string value, quoted as `curl -K` reads it. */
const quoted = (value: string) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/**
 * The multipart floor: create, presign every part, curl sends the parts `queueSize` at a time over
 * reused connections, complete; checks the stored size and deletes the object.
 */
export async function curlMultipart(
  target: Target,
  parts: PartFiles,
  size: number,
  queueSize: number,
  timeoutMs: number,
): Promise<CurlSample> {
  const { admin, bucket } = target;
  const key = `bench/curl-multipart-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}.bin`;
  const started = performance.now();
  const { UploadId } = await admin.send(
    new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: 'application/octet-stream' }),
  );
  let completed = false;
  try {
    const urls = await Promise.all(
      parts.paths.map((_, index) =>
        getSignedUrl(admin, new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber: index + 1 }), {
          expiresIn: PART_URL_SECONDS,
        }),
      ),
    );
    const created = performance.now();
    const config = parts.paths
      .map((path, index) => `upload-file = ${quoted(path)}\nurl = ${quoted(urls[index]!)}\noutput = "/dev/null"\n`)
      .join('');
    const lines = await runCurlConfig(
      ['--parallel', '--parallel-max', String(queueSize), '-H', 'Expect:', '-w', '%{url_effective} %{http_code} %header{etag}\\n'],
      config,
      timeoutMs,
    );
    const sent = performance.now();
    // Answers come in the order the parts finished: the URL's partNumber says which part each is.
    const etags = new Map<number, string>();
    for (const line of lines) {
      const [url, status, etag] = line.split(' ');
      if (status !== '200' || !etag) throw new Error(`curl UploadPart: HTTP ${status}${etag ? '' : ', no ETag'}`);
      etags.set(Number(new URL(url!).searchParams.get('partNumber')), etag);
    }
    const completedParts = urls.map((_, index) => {
      const etag = etags.get(index + 1);
      if (!etag) throw new Error(`curl sent no answer for part ${index + 1}`);
      return { PartNumber: index + 1, ETag: etag };
    });
    await admin.send(
      new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId, MultipartUpload: { Parts: completedParts } }),
    );
    completed = true;
    const finished = performance.now();
    const stored = await target.storedSize(key);
    if (stored !== size) throw new Error(`curl multipart: stored ${stored} bytes of ${size}`);
    return {
      seconds: (finished - started) / 1000,
      createSeconds: (created - started) / 1000,
      partsSeconds: (sent - created) / 1000,
      completeSeconds: (finished - sent) / 1000,
    };
  } finally {
    if (completed) await target.remove(key);
    else await admin.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId })).catch(() => {});
  }
}

/** Runs one curl with `args` and the config on stdin (`-K -`); resolves its stdout lines, or rejects with stderr. */
function runCurlConfig(args: string[], config: string, timeoutMs: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(...onClientCores('curl', ['-sS', '--no-progress-meter', ...args, '-K', '-']), { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout.split('\n').filter(Boolean));
      else reject(new Error(`curl exited with ${code}: ${stderr.trim().split('\n')[0] ?? ''}`));
    });
    child.stdin.end(config);
  });
}
