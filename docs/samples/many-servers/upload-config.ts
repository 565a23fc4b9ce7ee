// upload-config.ts: one configuration for every handler process (and the storage-events workers)
import { Redis } from 'ioredis';
import { defineRoutes, type UploadHandlerConfig, type UploadRoutes } from '@upbeam/upload-server';
import { redisLimitStore } from '@upbeam/upload-server/redis';

// The app's own Redis client; `enableOfflineQueue: false` makes a call fail at once while Redis is away.
const redis = new Redis(process.env.REDIS_URL!, { enableOfflineQueue: false });

export const uploadConfig = {
  limits: {
    preparations: { max: 60, windowSeconds: 60 },
    bytes: { max: 5 * 1024 ** 3, windowSeconds: 86_400 }, // 5 GiB a day
    inFlight: 3,
  },
  limitStore: redisLimitStore(redis), // every process counts in the same Redis
  limitStoreFailure: 'fail-closed', // while Redis is down: 503 LIMITS_UNAVAILABLE, nothing prepared
  routes: defineRoutes({
    video: {
      allowedContentTypes: ['video/*'],
      onBeforeUpload: async ({ request }) => ({ subject: await userIdOf(request) }),
      onUploadComplete: async ({ key, size, idempotencyKey }) => {
        await saveVideo({ key, size, idempotencyKey }); // keyed on idempotencyKey: safe to run twice
      },
    },
  }),
} satisfies UploadHandlerConfig & { routes: UploadRoutes };

declare function userIdOf(request: Request): Promise<string>;
declare function saveVideo(video: { key: string; size: number; idempotencyKey: string }): Promise<void>;
