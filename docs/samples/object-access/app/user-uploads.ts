// app/user-uploads.ts (server only): each user's uploads under a prefix of their own, the only keys they may read
import { createUploadHandler, defaultObjectKey, UploadError } from '@upbeam/upload-server';

/** Where a user's uploads go: `uploads/{userId}/`. */
export const userPrefix = (userId: string) => `uploads/${userId}/`;

export const upload = createUploadHandler({
  keyPrefix: 'uploads/',
  objectAcl: 'private',
  onBeforeUpload: async ({ body, request }) => {
    const user = await getUser(request);
    if (!user) throw new UploadError('UNAUTHORIZED', 'Sign in to upload.');
    // uploads/{userId}/{random id}/{sanitized file name}
    return { key: defaultObjectKey(body.filename, userPrefix(user.id)), userId: user.id };
  },
});
