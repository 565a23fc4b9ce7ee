#!/usr/bin/env node
/**
 * `npx @upbeam/local-s3 [--port 4568] [--host 127.0.0.1] [--bucket upbeam-local] [--origin URL]... [--dir PATH]`:
 * starts the local server, prints the `S3_UPLOAD_*` lines an app's upload handler needs for both
 * strategies, and runs until Ctrl-C.
 */
import { parseArgs } from 'node:util';
import { startLocalS3, type LocalS3 } from './index';

const USAGE = `Usage: local-s3 [options]

A local S3-compatible server (s3rver) with one CORS bucket, multipart abort and an STS stand-in,
for trying browser uploads with no cloud account. Prints the S3_UPLOAD_* settings for your app.

Options:
  --port <n>      port to listen on (default 4568; 0 picks a free one)
  --host <addr>   address to listen on (default 127.0.0.1)
  --bucket <name> bucket to create (default upbeam-local)
  --origin <url>  origin of your app's page allowed by the bucket's CORS rule; repeat for more
                  (default: any origin)
  --dir <path>    folder that keeps the objects across runs (default: a temp folder, removed on exit)
  -h, --help      this text`;

function fail(message: string): never {
  console.error(`local-s3: ${message}`);
  process.exit(2);
}

function parse() {
  try {
    return parseArgs({
      options: {
        port: { type: 'string', default: '4568' },
        host: { type: 'string', default: '127.0.0.1' },
        bucket: { type: 'string', default: 'upbeam-local' },
        origin: { type: 'string', multiple: true },
        dir: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    return fail(`${(error as Error).message}\n\n${USAGE}`);
  }
}

const options = parse();
if (options.help) {
  console.log(USAGE);
  process.exit(0);
}
const port = Number(options.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a port number; got "${options.port}"`);

let storage: LocalS3;
try {
  storage = await startLocalS3({
    port,
    host: options.host,
    bucket: options.bucket,
    allowedOrigins: options.origin ?? ['*'],
    directory: options.dir,
  });
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') fail(`port ${port} on ${options.host} is taken: choose another with --port`);
  if (code === 'EADDRNOTAVAIL') fail(`cannot listen on ${options.host}: choose another address with --host`);
  throw error;
}

const origins = options.origin?.join(', ') ?? 'any origin';
const kept = options.dir ? `objects in ${options.dir}` : 'objects in a temp folder, removed on exit';
console.log(`Local S3 on ${storage.endpoint}: bucket "${storage.bucket}", CORS for ${origins}, ${kept}.`);
console.log('Your upload handler reads these (both strategies; e.g. in .env.local):\n');
for (const [name, value] of Object.entries(storage.env)) console.log(`${name}=${value}`);
console.log('\nCtrl-C stops it.');

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await storage.close();
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
