// A server's routes, as an app writes them (server code: it must never reach the page's bundle). Each
// `@ts-expect-error` below must be an error: `typed-routes.test.ts` compiles this file with the page.
import { defineRoute, defineRoutes, UploadError } from '@upbeam/upload-server';

export const routes = defineRoutes({
  avatar: defineRoute({
    allowedContentTypes: ['image/*'],
    maxFileSize: 4 * 1024 * 1024,
    maxFiles: 1,
    onBeforeUpload: ({ request }) => {
      const userId = request.headers.get('x-user-id');
      if (!userId) throw new UploadError('UNAUTHORIZED', 'Sign in to upload.');
      return { userId, metadata: { 'user-id': userId } };
    },
    // `context` is what onBeforeUpload returned but its decisions: { userId: string }.
    // It is the same on every path: the page's report, and the server's own finds (reconcileUploads, storage events).
    onUploadComplete: async ({ key, source, context, request }) => {
      const owner: string = context.userId;
      // @ts-expect-error an upload found by reconcileUploads (no page report) has no request: check `source` first
      request.headers;
      if (source === 'page') request.headers.get('cookie');
      // @ts-expect-error onBeforeUpload returned no teamId
      context.teamId;
      // @ts-expect-error metadata is the object's (the hook's `metadata`), not the context's
      context.metadata;
      return { avatarKey: key, width: 256, owner };
    },
  }),
  video: defineRoute({
    // @ts-expect-error onBeforeUpload's decisions keep their types (a key is text)
    onBeforeUpload: () => ({ key: 42 }),
  }),
  documents: defineRoute({
    allowedContentTypes: ['application/pdf'],
    maxFiles: 20,
    // No onBeforeUpload: no context.
    onUploadComplete: ({ size, context }) => ({ pages: Math.ceil(size / 3000), context: context satisfies undefined }),
  }),
  // A route written without defineRoute: its context is unknown, to be checked before use.
  plain: {
    onBeforeUpload: () => ({ userId: 'u1' }),
    onUploadComplete: ({ context }) => {
      // @ts-expect-error unknown context must be checked before use
      context.userId;
      return { plain: true };
    },
  },
  raw: { maxFileSize: 10 },
});
