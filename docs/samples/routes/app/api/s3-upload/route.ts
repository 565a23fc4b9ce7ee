// app/api/s3-upload/route.ts
import { createRouteHandler } from '@upbeam/upload-server/next';
import { routes } from './upload-routes';

export const { POST, GET } = createRouteHandler({ routes });
