// Deno: `deno run --allow-net=127.0.0.1 --allow-env=S3_UPLOAD_*,PORT --ignore-env --allow-sys=osRelease deno.js` (README, "Deno").
import process from 'node:process';
import { createApp } from './app.js';

Deno.serve({ hostname: '127.0.0.1', port: Number(process.env.PORT), onListen: ({ port }) => console.log(`listening on ${port}`) }, createApp('deno', process.env));
