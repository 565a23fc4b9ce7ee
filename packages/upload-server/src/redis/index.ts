/**
 * @module
 * `@upbeam/upload-server/redis`: quotas and rate limits counted in Redis, for a handler that runs in many
 * processes: `redisLimitStore(client)` over the app's `ioredis` client (an optional peer dependency), given to
 * the handler as `limitStore`. The types it implements (`LimitStore`, `UploadLimits`, ...) come from
 * `@upbeam/upload-server`.
 */
export { redisLimitStore, type RedisLimitStoreOptions } from './redis-limit-store';
