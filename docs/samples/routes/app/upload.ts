// app/upload.ts (the page's side: only a type crosses, with `import type`)
import { createRouteHooks } from '@upbeam/upload-react';
import type { routes } from './api/s3-upload/upload-routes';

export const { useS3Upload, useDropZone } = createRouteHooks<typeof routes>();
