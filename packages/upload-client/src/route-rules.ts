import { DEFAULT_UPLOAD_ENDPOINT, type RouteRules, type RouteRulesResponse } from '@upbeam/upload-protocol';
import { UploadClientError } from './errors';

/**
 * The public rules of one route, from a GET on the endpoint (`createUploadHandler({ routes })` answers
 * them): its content types, largest size in bytes, most files per batch and strategies, so that the page
 * checks files before any upload without a copy of the rules.
 *
 * @param route - The route's name.
 * @param url - The endpoint. @default '/api/s3-upload'
 * @throws {@link UploadClientError} `PREPARE_FAILED` when the endpoint does not answer 200 with the route's
 *   rules (no routes there: 405; `UNKNOWN_ROUTE` when it has no route of that name); `NETWORK_ERROR` offline.
 */
export async function fetchRouteRules(route: string, url: string = DEFAULT_UPLOAD_ENDPOINT, signal?: AbortSignal): Promise<RouteRules> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json' }, ...(signal ? { signal } : {}) });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new UploadClientError('NETWORK_ERROR', `No answer from the upload endpoint ${url}.`);
  }
  if (!response.ok) {
    throw new UploadClientError('PREPARE_FAILED', `Upload endpoint answered ${response.status} to the GET of its routes.`, {
      status: response.status,
    });
  }
  const { routes } = (await response.json()) as Partial<RouteRulesResponse>;
  // Own names only: a route called `constructor` must not find Object's.
  const rules = routes && Object.hasOwn(routes, route) ? routes[route] : undefined;
  if (rules === undefined) {
    throw new UploadClientError('PREPARE_FAILED', `Upload endpoint ${url} has no route "${route}".`, {
      status: response.status,
      answerCode: 'UNKNOWN_ROUTE',
    });
  }
  return rules;
}
