// `node --import ./count-clients.mjs five-routes.mjs`: counts the S3 and STS clients constructed, through module
// hooks that hand the handler a subclass of each client that counts itself (`globalThis.upbeamClientsConstructed`).
// For the count only: the hooks cost start-up time, so the timed runs go without them.
import { register } from 'node:module';

register('./count-clients-hooks.mjs', import.meta.url);
