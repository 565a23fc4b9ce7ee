// express.ts: the same routes in an Express app
import express from 'express';
import { createUploadHandler } from '@upbeam/upload-server';
import { toNodeHandler } from '@upbeam/upload-server/node';
import { routes } from './upload-routes.js'; // .js: the compiled file's name, as Node's ES modules want it

const upload = toNodeHandler(createUploadHandler({ routes }));
const app = express();
// Every method to the handler: POST prepares, GET answers the rules, others get 405 (with app.get and app.post
// alone, Express answers the others 404). It reads the raw body, or takes what express.json() parsed.
app.all('/api/s3-upload', upload);
const port = Number(process.env.PORT ?? 3000);
app.listen(port, () => console.log(`Upload endpoint on http://localhost:${port}/api/s3-upload`));
