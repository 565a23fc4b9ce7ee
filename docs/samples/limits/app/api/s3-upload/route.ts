// app/api/s3-upload/route.ts
import { createRouteHandler } from '@upbeam/upload-server/next';
import { defineRoutes, UploadError, type BeforeUploadHook } from '@upbeam/upload-server';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const DAY = 86_400; // seconds

/** Signed-in users only; their quotas count against their user id. */
const signedIn: BeforeUploadHook = async ({ request }) => {
  const user = await getUser(request);
  if (!user) throw new UploadError('UNAUTHORIZED', 'Sign in to upload.');
  return { subject: user.id, userId: user.id };
};

export const { POST, GET } = createRouteHandler({
  // Every route that sets no `limits` of its own: counted together, per user.
  limits: {
    preparations: { max: 60, windowSeconds: 60 }, // 429 RATE_LIMITED past 60 a minute
    files: { max: 1000, windowSeconds: DAY }, // 429 QUOTA_EXCEEDED
    inFlight: 3,
  },
  // One process counts in memory (the default). Several: a shared store (the Redis store, or your own).
  limitStoreFailure: 'fail-closed', // the default: 503 LIMITS_UNAVAILABLE while the store is down
  routes: defineRoutes({
    avatar: { allowedContentTypes: ['image/*'], maxFileSize: 4 * MiB, onBeforeUpload: signedIn },
    // Its own limits replace the handler's and are counted apart: 5 GiB a day of video per user.
    video: {
      allowedContentTypes: ['video/*'],
      limits: { bytes: { max: 5 * GiB, windowSeconds: DAY }, inFlight: 2 },
      onBeforeUpload: signedIn,
    },
  }),
});
