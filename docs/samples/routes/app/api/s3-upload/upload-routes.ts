// app/api/s3-upload/upload-routes.ts (server only); getUser and db stand for your app's own session and database
import { defineRoute, defineRoutes, UploadError } from '@upbeam/upload-server';

export const routes = defineRoutes({
  avatar: defineRoute({
    allowedContentTypes: ['image/*'],
    maxFileSize: 4 * 1024 * 1024, // bytes
    maxFiles: 1,
    keyPrefix: 'avatars/',
    onBeforeUpload: async ({ request }) => {
      const user = await getUser(request); // your app's session lookup: who sends this request
      if (!user) throw new UploadError('UNAUTHORIZED', 'Sign in to upload.');
      // userId: the context of onUploadComplete, signed by the server (the browser cannot change it).
      return { userId: user.id };
    },
    onUploadComplete: async ({ key, context }) => {
      // The page's report and the server's own finds (reconcileUploads, storage events) carry the same
      // context. Never read the owner from the object's metadata: the browser can write it.
      await db.users.update(context.userId, { avatarKey: key }); // your app's database
      return { avatarKey: key };
    },
  }),
  documents: {
    allowedContentTypes: ['application/pdf'],
    maxFileSize: 20 * 1024 * 1024,
    maxFiles: 20,
    strategies: ['presigned'],
    onUploadComplete: ({ key, size }) => ({ documentKey: key, kib: Math.ceil(size / 1024) }),
  },
});

