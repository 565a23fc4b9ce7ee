// A server's routes, as an app writes them (server code: it must never reach the page's bundle).
import { defineRoutes, UploadError } from '@upbeam/upload-server';

export const routes = defineRoutes({
  avatar: {
    allowedContentTypes: ['image/*'],
    maxFileSize: 4 * 1024 * 1024,
    maxFiles: 1,
    onBeforeUpload: ({ request }) => {
      if (!request.headers.get('cookie')) throw new UploadError('UNAUTHORIZED', 'Sign in to upload.');
    },
    onUploadComplete: async ({ key }) => ({ avatarKey: key, width: 256 }),
  },
  documents: {
    allowedContentTypes: ['application/pdf'],
    maxFiles: 20,
    onUploadComplete: ({ size }) => ({ pages: Math.ceil(size / 3000) }),
  },
  raw: { maxFileSize: 10 },
});
