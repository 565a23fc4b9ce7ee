/** `pnpm dev`: the page with hot reload and the upload handler on one origin (examples/shared/server/dev-server.ts). */
import { runDevServer } from '@upbeam/example-shared/dev-server';

await runDevServer(new URL('..', import.meta.url));
