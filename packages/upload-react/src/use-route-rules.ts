'use client';
import { fetchRouteRules } from '@upbeam/upload-client';
import type { RouteRules } from '@upbeam/upload-protocol';
import { useEffect, useState } from 'react';
import type { FileRules } from '@upbeam/upload-client/drop-zone';

/** A route's public rules as {@link FileRules}: its types as `accept`, its `maxFileSize` as `maxSize`, its `maxFiles`. */
export function routeFileRules(rules: RouteRules): FileRules {
  return {
    ...(rules.allowedContentTypes === undefined ? {} : { accept: rules.allowedContentTypes.join(',') }),
    ...(rules.maxFileSize === undefined ? {} : { maxSize: rules.maxFileSize }),
    ...(rules.maxFiles === undefined ? {} : { maxFiles: rules.maxFiles }),
  };
}

/**
 * The {@link FileRules} of `route`, fetched once from the endpoint's GET (`undefined` until they arrive, or
 * when no route is given). A failed fetch is reported to `console.warn` and leaves the rules unset: the
 * server still refuses what breaks them.
 */
export function useRouteRules(route: string | undefined, endpoint: string | undefined): FileRules | undefined {
  const [rules, setRules] = useState<{ route: string; endpoint: string | undefined; rules: FileRules }>();
  useEffect(() => {
    if (route === undefined) return;
    const controller = new AbortController();
    fetchRouteRules(route, endpoint, controller.signal).then(
      (found) => setRules({ route, endpoint, rules: routeFileRules(found) }),
      (error: unknown) => {
        if (!controller.signal.aborted) console.warn('[upbeam] the rules of upload route', route, 'could not be read:', error);
      },
    );
    return () => controller.abort();
  }, [route, endpoint]);
  return rules !== undefined && rules.route === route && rules.endpoint === endpoint ? rules.rules : undefined;
}
