// Bun: `bun bun.js`, listening on $PORT.
import { createApp } from './app.js';

const server = Bun.serve({ hostname: '127.0.0.1', port: Number(process.env.PORT), fetch: createApp('bun', process.env) });
console.log(`listening on ${server.port}`);
