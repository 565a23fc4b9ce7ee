// server.ts: a node:http server with the routes on /api/s3-upload (settings from the S3_UPLOAD_* variables)
import { createServer } from 'node:http';
import { createUploadHandler } from '@upbeam/upload-server';
import { toNodeHandler } from '@upbeam/upload-server/node';
import { routes } from './upload-routes.js'; // .js: the compiled file's name, as Node's ES modules want it

// One handler for both methods: POST prepares an upload, GET answers the routes' public rules (the page's
// drop zone reads them); any other method gets 405.
const upload = toNodeHandler(createUploadHandler({ routes }));

const server = createServer((req, res) => {
  if (req.url?.split('?')[0] === '/api/s3-upload') return void upload(req, res);
  res.writeHead(404).end();
});
const port = Number(process.env.PORT ?? 3000);
server.listen(port, () => console.log(`Upload endpoint on http://localhost:${port}/api/s3-upload`));
