import { fileURLToPath } from 'node:url';
import { startExample as startBuiltExample, type RunningExample } from '@upbeam/example-shared/example-server';

export type { RunningExample };

/**
 * Starts the React example as a user would run it (`pnpm build && pnpm start`), on ports picked by the OS.
 * @param staticRoot - The built page to serve; default the example's own build, `dist/`.
 */
export function startExample(staticRoot = fileURLToPath(new URL('../dist', import.meta.url))): Promise<RunningExample> {
  return startBuiltExample(staticRoot);
}
