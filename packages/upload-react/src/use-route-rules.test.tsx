// @vitest-environment jsdom
import type { RouteRulesResponse } from '@upbeam/upload-protocol';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routeFileRules, useRouteRules } from './use-route-rules';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// The endpoint's GET is a stand-in here (jsdom has no server; the browser suite `routes.e2e.test.ts` reads
// the real handler's rules in chromium, Firefox and WebKit): it answers what `createUploadHandler({ routes })`
// answers.
const RULES: RouteRulesResponse = {
  routes: {
    avatar: { allowedContentTypes: ['image/*', 'image/heic'], maxFileSize: 4194304, maxFiles: 1, strategies: ['presigned'] },
    any: { strategies: ['presigned', 'temporary-token'] },
  },
};

afterEach(() => vi.unstubAllGlobals());

describe('routeFileRules', () => {
  it("maps a route's public rules to the drop zone's: types joined as accept, maxFileSize as maxSize, maxFiles", () => {
    expect(routeFileRules(RULES.routes.avatar!)).toEqual({ accept: 'image/*,image/heic', maxSize: 4194304, maxFiles: 1 });
    expect(routeFileRules(RULES.routes.any!)).toEqual({});
  });
});

describe('useRouteRules', () => {
  it("reads the route's rules once from the endpoint's GET; none without a route", async () => {
    const fetch = vi.fn(async (url: string) => {
      expect(url).toBe('/api/uploads');
      return Response.json(RULES);
    });
    vi.stubGlobal('fetch', fetch);
    const seen: unknown[] = [];
    function Probe({ route }: { route?: string }) {
      seen.push(useRouteRules(route, '/api/uploads'));
      return null;
    }
    const root = createRoot(document.createElement('div'));
    await act(async () => root.render(<Probe />));
    expect(fetch).not.toHaveBeenCalled();
    await act(async () => root.render(<Probe route="avatar" />));
    await vi.waitFor(() => expect(seen.at(-1)).toEqual({ accept: 'image/*,image/heic', maxSize: 4194304, maxFiles: 1 }));
    expect(fetch).toHaveBeenCalledTimes(1);
    act(() => root.unmount());
  });
});
