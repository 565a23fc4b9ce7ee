// Cold start, Upbeam: the same node:http server with the upload handler through the node adapter, as an
// app's server starts. `UPBEAM_SERVER_DIST` points at another build of @upbeam/upload-server (its dist/
// folder) to compare builds. Prints `{"port":N}` once listening.
import { createServer } from 'node:http';

const dist = process.env.UPBEAM_SERVER_DIST;
const [{ createUploadHandler }, { toNodeHandler }] = await Promise.all(
  dist
    ? [import(`${dist}/index.js`), import(`${dist}/adapters/node.js`)]
    : [import('@upbeam/upload-server'), import('@upbeam/upload-server/node')],
);
// The endpoint is never contacted: the check of unsigned headers (a network probe of storage on the first
// presigned preparation, measured apart in docs/guide/security.md) is skipped, as an AWS S3 app has none.
const server = createServer(toNodeHandler(createUploadHandler({ checkUnsignedHeaders: false })));
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
// Once an answer is sent: the CPU time this process has used since it started (microseconds), for the
// benchmark's CPU column (a busy machine changes it much less than the wall time).
server.on('request', (request, response) => response.once('finish', () => console.log(JSON.stringify({ cpu: process.cpuUsage() }))));
