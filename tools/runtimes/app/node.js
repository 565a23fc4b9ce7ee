// Node.js: `node node.js`, listening on $PORT: node:http with the package's node adapter (`toNodeHandler`).
import { createServer } from 'node:http';
import { toNodeHandler } from '@upbeam/upload-server/node';
import { createApp } from './app.js';

const server = createServer(toNodeHandler(createApp('node', process.env)));
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log(`listening on ${server.address().port}`));
