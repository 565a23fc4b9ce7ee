// app/api/s3-upload/upload-routes.ts (server only)
import { defineRoute, defineRoutes, UploadError } from '@upbeam/upload-server';

export const routes = defineRoutes({
  avatar: defineRoute({
    allowedContentTypes: ['image/*'],
    maxFileSize: 4 * 1024 * 1024, // bytes
    maxFiles: 1,
    keyPrefix: 'avatars/',
    onBeforeUpload: async ({ request }) => {
      const user = await getUser(request);
      if (!user) throw new UploadError('UNAUTHORIZED', 'Sign in to upload.');
      // userId: the context of onUploadComplete; the metadata is stored with the object.
      return { userId: user.id, metadata: { 'user-id': user.id } };
    },
    onUploadComplete: async ({ key, source, context, metadata }) => {
      // A page's report carries the context ({ userId: string }); an upload found by reconcileUploads has
      // no page behind it (source 'reconcile'), only the object's metadata.
      const userId = source === 'page' ? context.userId : metadata['user-id'];
      await db.users.update(userId, { avatarKey: key });
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

