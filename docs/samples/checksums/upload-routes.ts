// app/api/s3-upload/upload-routes.ts (server only)
import { defineRoutes } from '@upbeam/upload-server';

export const routes = defineRoutes({
  // Photos named by their SHA-256: the same photo sent twice is stored once, and the second upload sends nothing.
  photos: {
    contentAddressed: true, // key: photos/sha256/{hex}.jpg; checksum: 'sha256'
    keyPrefix: 'photos/',
    allowedContentTypes: ['image/*'],
    maxFileSize: 20 * 1024 * 1024, // bytes
    onUploadComplete: async ({ key, checksum, deduplicated }) => {
      // checksum: what the server signed ({ algorithm: 'sha256', value }); deduplicated: no byte was sent.
      await db.photos.upsert({ key, sha256: checksum?.value, reused: deduplicated });
      return { key };
    },
  },
});

declare const db: { photos: { upsert(row: { key: string; sha256: string | undefined; reused: boolean | undefined }): Promise<void> } };
