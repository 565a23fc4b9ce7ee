/**
 * What the page server's endpoints do during one page upload: each request to `/api/upbeam` or
 * `/api/floor-multipart/*` (its action, its time in the handler) and the storage calls it made (Node's
 * `http.client.*` diagnostics channels: method, S3 operation, time to the answer's headers). The storage
 * calls of a request are told apart by an AsyncLocalStorage entered for it, so overlapping requests (a
 * signing batch while parts are in flight) keep their own calls.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { subscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';

/** One storage request made by the handler. */
export interface StorageCall {
  /** e.g. `CreateMultipartUpload`, `HeadObject`. */
  op: string;
  ms: number;
}

/** One endpoint request, as the page server saw it. */
export interface EndpointCall {
  /** The endpoint's path and the operation asked, e.g. `/api/upbeam create`. */
  name: string;
  /** Milliseconds from the request's arrival to the handler's answer (its body included). */
  ms: number;
  storage: StorageCall[];
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/** The S3 operation of a request by its method and query, as far as the handler's calls go. */
function operationOf(method: string, path: string): string {
  const query = new URLSearchParams(path.split('?')[1] ?? '');
  if (query.has('uploads')) return 'CreateMultipartUpload';
  if (query.has('tagging')) return method === 'PUT' ? 'PutObjectTagging' : `${method} tagging`;
  if (query.has('uploadId')) {
    if (method === 'POST') return 'CompleteMultipartUpload';
    if (method === 'DELETE') return 'AbortMultipartUpload';
    if (method === 'GET') return 'ListParts';
  }
  if (query.get('Action')) return query.get('Action')!;
  if (method === 'HEAD') return 'HeadObject';
  // STS takes its action in a form body, to the endpoint's root.
  if (method === 'POST' && path.split('?')[0] === '/') return 'STS (POST /)';
  return `${method} object`;
}

const current = new AsyncLocalStorage<EndpointCall>();
/** Requests under way: the call that made each one (the answer may arrive in another async context) and its start. */
const started = new WeakMap<ClientRequest, { call: EndpointCall; start: number }>();
let log: EndpointCall[] = [];

subscribe('http.client.request.start', (message) => {
  const call = current.getStore();
  if (call) started.set((message as { request: ClientRequest }).request, { call, start: performance.now() });
});
subscribe('http.client.response.finish', (message) => {
  const { request } = message as { request: ClientRequest };
  const made = started.get(request);
  if (!made) return;
  const { call, start } = made;
  call.storage.push({ op: operationOf(request.method, request.path), ms: round1(performance.now() - start) });
});

/** The operation a request body asks for (`_upload.multipart.action`, the token or completion markers). */
function actionOf(body: string): string {
  try {
    const marker = (JSON.parse(body) as { _upload?: { multipart?: { action?: string }; complete?: unknown; renew?: unknown; strategy?: string } })._upload;
    if (marker?.multipart?.action) return marker.multipart.action;
    if (marker?.complete) return 'complete (receipt)';
    return marker?.strategy ? `prepare ${marker.strategy}` : 'prepare';
  } catch {
    return '';
  }
}

/**
 * Runs `handle` for `request` as one logged endpoint call: its time until `handle` resolves, its action
 * read from a copy of the body, its storage calls.
 */
export async function logged(path: string, request: Request, handle: (request: Request) => Promise<Response>): Promise<Response> {
  const action = request.method === 'POST' ? actionOf(await request.clone().text()) : request.method;
  const call: EndpointCall = { name: `${path} ${action}`.trim(), ms: 0, storage: [] };
  const start = performance.now();
  try {
    return await current.run(call, () => handle(request));
  } finally {
    call.ms = round1(performance.now() - start);
    log.push(call);
  }
}

/** The endpoint calls since the last call to `takeEndpointCalls`, in the order they ended. */
export function takeEndpointCalls(): EndpointCall[] {
  const taken = log;
  log = [];
  return taken;
}
