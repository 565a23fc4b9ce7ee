// Cloudflare Workers (workerd): the handler is built on the first request, from the Worker's `env`.
import { createApp } from './app.js';

let handler;

export default {
  fetch(request, env) {
    handler ??= createApp('workerd', env);
    return handler(request);
  },
};
