// server.ts: an Express app that prepares uploads at /api/s3-upload (settings from S3_UPLOAD_* variables)
import express from 'express';
import { createUploadHandler } from '@upbeam/upload-server';
import { toNodeHandler } from '@upbeam/upload-server/node';

const app = express();
app.post('/api/s3-upload', toNodeHandler(createUploadHandler({ maxFileSize: 100 * 1024 * 1024 })));
app.listen(3000);
