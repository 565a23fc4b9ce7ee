/** `pnpm start`: the built page (`pnpm build` first) and the upload handler (examples/shared/server/production-server.ts). */
import { runProductionServer } from '@upbeam/example-shared/production-server';

await runProductionServer(new URL('..', import.meta.url));
