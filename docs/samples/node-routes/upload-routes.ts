// upload-routes.ts (server only): two kinds of upload on one endpoint. Authorize in each route's
// onBeforeUpload with your app's session (the routes guide's first sample shows how).
import { defineRoutes } from '@upbeam/upload-server';

export const routes = defineRoutes({
  avatar: { allowedContentTypes: ['image/*'], maxFileSize: 4 * 1024 * 1024, maxFiles: 1 }, // bytes
  documents: { allowedContentTypes: ['application/pdf'], maxFileSize: 20 * 1024 * 1024, maxFiles: 20 },
});
