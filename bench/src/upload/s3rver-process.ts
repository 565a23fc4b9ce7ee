/**
 * The embedded storage in a process of its own, for the benchmarks (`startS3rverTarget`): `@upbeam/local-s3`
 * (s3rver with its CORS bucket, multipart abort and STS stand-in) on a free 127.0.0.1 port, objects under the
 * folder given. Prints `{ endpoint, bucket, region, accessKeyId, secretAccessKey }` as one JSON line once it
 * listens, and stops when its stdin closes (lib/child.ts).
 *
 * Usage: `s3rver-process.ts <directory> <allowed origin>`
 */
import { startLocalS3 } from '@upbeam/local-s3';

const [directory, origin] = process.argv.slice(2);
if (!directory || !origin) throw new Error('usage: s3rver-process.ts <directory> <allowed origin>');
const storage = await startLocalS3({ directory, allowedOrigins: [origin] });
const { endpoint, bucket, region, accessKeyId, secretAccessKey } = storage;
console.log(JSON.stringify({ endpoint, bucket, region, accessKeyId, secretAccessKey }));
process.stdin.resume();
process.stdin.on('end', () => {
  storage.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
