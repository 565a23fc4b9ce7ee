/**
 * A storage stand-in for the photo runs of the many-files benchmark (named so: not S3): it answers every presigned
 * PUT with 200 and an ETag once it has read the body, and keeps none of it. 5,000 photos of 4 MB are 20 GB, more
 * than RAM-backed s3rver holds and more than its disk writes in a round's time; what the photo runs measure is the
 * page (previews, memory, long tasks), so the bytes cross loopback and are dropped. On 127.0.0.1, CORS as S3's.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { S3Client } from '@aws-sdk/client-s3';
import { createUploadHandler } from '@upbeam/upload-server';
import { nextPagesRoute } from '../lib/next-pages-route';
import { APIRoute } from 'next-s3-upload';
import type { Target } from '../upload/targets';

export async function startDiscardTarget(pageOrigin: string): Promise<Target & { bytesReceived(): number }> {
  let received = 0;
  const server = createServer((request, response) => {
    response.setHeader('Access-Control-Allow-Origin', pageOrigin);
    response.setHeader('Access-Control-Expose-Headers', 'ETag');
    if (request.method === 'OPTIONS') {
      response.setHeader('Access-Control-Allow-Methods', 'PUT, POST, GET, HEAD');
      response.setHeader('Access-Control-Allow-Headers', request.headers['access-control-request-headers'] ?? '*');
      response.writeHead(204).end();
      return;
    }
    request.on('data', (chunk: Buffer) => (received += chunk.length));
    request.on('end', () => response.writeHead(200, { ETag: '"discarded"' }).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const settings = { accessKeyId: 'discard', secretAccessKey: 'discard-secret', bucket: 'photos', region: 'us-east-1', endpoint, forcePathStyle: true };
  const admin = new S3Client({ region: settings.region, endpoint, forcePathStyle: true, credentials: { accessKeyId: 'discard', secretAccessKey: 'discard-secret' } });
  return {
    name: 's3rver',
    description: 'a storage stand-in that reads each PUT body and keeps nothing (bench/src/many-files/discard-storage.ts)',
    endpoint,
    bucket: settings.bucket,
    admin,
    upbeam: createUploadHandler({ ...settings, checksum: false }),
    nextS3Upload: nextPagesRoute(APIRoute.configure({ ...settings })),
    storedSize: async () => undefined,
    remove: async () => {},
    storageCpuSeconds: () => 0,
    collectGarbage: async () => {},
    bytesReceived: () => received,
    async close() {
      admin.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
