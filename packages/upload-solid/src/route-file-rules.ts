import { fetchRouteRules } from '@upbeam/upload-client';
import type { FileRules } from '@upbeam/upload-client/drop-zone';
import { createEffect, createSignal, onCleanup, type Accessor } from 'solid-js';

/**
 * The {@link FileRules} of the route `read()` names, fetched from its endpoint's GET (again when the route
 * or the endpoint changes): `undefined` until they arrive, or when no route is named. The route's types
 * become `accept`, its `maxFileSize` `maxSize`, its `maxFiles` `maxFiles`. A failed fetch is reported to
 * `console.warn` and leaves the rules unset: the server still refuses what breaks them. The same rules as
 * React's `useDropZone({ route })`.
 */
export function createRouteFileRules(read: Accessor<{ route?: string | undefined; endpoint?: string | undefined }>): Accessor<FileRules | undefined> {
  const [rules, setRules] = createSignal<FileRules>();
  // An effect: it runs in the browser only (not in server rendering), after the component is mounted.
  createEffect(() => {
    const { route, endpoint } = read();
    setRules(undefined);
    if (route === undefined) return;
    const controller = new AbortController();
    onCleanup(() => controller.abort());
    fetchRouteRules(route, endpoint, controller.signal).then(
      (found) =>
        setRules({
          ...(found.allowedContentTypes === undefined ? {} : { accept: found.allowedContentTypes.join(',') }),
          ...(found.maxFileSize === undefined ? {} : { maxSize: found.maxFileSize }),
          ...(found.maxFiles === undefined ? {} : { maxFiles: found.maxFiles }),
        }),
      (error: unknown) => {
        if (!controller.signal.aborted) console.warn('[upbeam] the rules of upload route', route, 'could not be read:', error);
      },
    );
  });
  return rules;
}
