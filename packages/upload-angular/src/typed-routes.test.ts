import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile } from '../../../test/typed-routes';

// Types from server to page: `test-types/page.ts` uses the routes of upload-react's `test-types/upload-routes.ts`
// (`defineRoutes`) through `import type` and `createRouteHooks`, with `@ts-expect-error` on every line that
// must not compile.

describe('typed routes', () => {
  it('compile: right route names and serverData fields compile, wrong ones fail (tsc on test-types/page.ts)', () => {
    // An unused `@ts-expect-error` (a wrong line that compiled) is an error too (TS2578).
    expect(compile([join(import.meta.dirname, '../test-types/page.ts')])).toEqual([]);
  }, 120_000);
});
