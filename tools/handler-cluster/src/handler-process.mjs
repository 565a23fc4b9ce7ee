// One upload handler process of the cluster (`index.ts`): createUploadHandler of the built package, served by
// toNodeHandler on a free port of 127.0.0.1, its limits counted in Redis when given `redisUrl`. Its settings come
// as JSON in UPBEAM_HANDLER_CONFIG (`HandlerProcessConfig`); it prints `{"port":N}` once it listens.
// The subject of an upload is the body's `user` field (onBeforeUpload), or the client's IP without one.
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import { join } from 'node:path';

const config = JSON.parse(process.env.UPBEAM_HANDLER_CONFIG ?? '{}');
// The package as an app installs it, resolved from its folder (its own name, and ioredis, a dev dependency there):
// this tool declares no dependency on it, so that the package may use the tool in its tests.
const require = createRequire(join(process.env.UPBEAM_SERVER_DIR, 'package.json'));
const { Redis } = require('ioredis');
const { createUploadHandler } = require('@upbeam/upload-server');
const { toNodeHandler } = require('@upbeam/upload-server/node');
const { redisLimitStore } = require('@upbeam/upload-server/redis');
let redis;
if (config.redisUrl) {
  // No offline queue: while Redis is down a call rejects at once (the handler's limitStoreFailure answers).
  redis = new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => 100 });
  redis.on('error', () => {});
  await new Promise((resolve) => redis.once('ready', resolve));
}
const errors = { count: 0, messages: [] };
const handler = createUploadHandler({
  ...config.storage,
  ...(config.limits ? { limits: config.limits } : {}),
  ...(redis ? { limitStore: redisLimitStore(redis, { prefix: config.prefix, timeoutMs: config.timeoutMs }) } : {}),
  ...(config.limitStoreFailure ? { limitStoreFailure: config.limitStoreFailure } : {}),
  ...(config.completionHook ? { onUploadComplete: () => ({ ok: true }) } : {}),
  onBeforeUpload: ({ body }) => (typeof body.user === 'string' ? { subject: body.user } : {}),
  onError: (error) => {
    errors.count += 1;
    if (errors.messages.length < 20) errors.messages.push(String(error?.message ?? error));
  },
});
const serve = toNodeHandler(handler);
const server = createServer((request, response) => {
  if (request.url === '/__cluster/errors') return void response.end(JSON.stringify(errors));
  serve(request, response);
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close();
  redis?.disconnect();
  process.exit(0);
});
