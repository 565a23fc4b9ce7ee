import type { Attributes } from '@opentelemetry/api';
import type { MultipartAction, MultipartRequest, UploadMarker, UploadRequestBody, UploadStrategy } from '@upbeam/upload-protocol';
import type { AppRoute } from './app';
import { UploadError } from './errors';
import type { RequestSource } from './incoming-request';
import { ok, type JsonAnswer } from './json-answer';
import { complete } from './operations/complete';
import { runMultipart } from './operations/multipart';
import { assertPostSize, preparePost } from './operations/prepare-post';
import { preparePresigned } from './operations/prepare-presigned';
import { prepareToken } from './operations/prepare-token';
import { renew } from './operations/renew';
import { decideObject, type RouteContext } from './operations/route-context';
import type { BodyAdmission } from './request-body';
import { ATTR, countPreparation, inSpan, type SpanName } from './telemetry';

/** A `"ticket": "..."` member in raw JSON text (a ticket is base64url with one dot, at most 4096 characters). */
const TICKET_FIELD = /"ticket"\s*:\s*"([A-Za-z0-9_.-]{1,4096})"/;

/** One route's operations, on its services in the app (`app.ts`): a handler without routes has one, with `route` undefined. */
export interface RouteEndpoint {
  /** Answers a checked request body of this route; `source` gives user code the request. */
  handle(body: UploadRequestBody, source: RequestSource): Promise<JsonAnswer>;
  /** Whether a body over 16 KiB is read on: see {@link createRouteEndpoint}. */
  admitLargeBody: BodyAdmission;
}

/**
 * The route's dispatch: each request body goes to one operation (`operations/`) by its `_upload` marker.
 * A body longer than 16 KiB is read on (up to 1 MiB: a multipart `complete` of up to 10000 parts) only when
 * its first 16 KiB name a multipart ticket this route issued: Upbeam's client writes the ticket before the
 * parts. Anyone else's large body is refused at 16 KiB, before it is parsed.
 */
export function createRouteEndpoint({ name: route, config, services }: AppRoute): RouteEndpoint {
  const context: RouteContext = { config, services };
  const admitLargeBody: BodyAdmission = async (head) => {
    const ticket = TICKET_FIELD.exec(head)?.[1];
    if (ticket === undefined) return false;
    return context.services.multipartTickets().verify(ticket).then(
      () => true,
      () => false,
    );
  };
  const run = async (body: UploadRequestBody, source: RequestSource): Promise<JsonAnswer> => {
    const { _upload: marker } = body;
    assertStrategyAllowed(marker.strategy, config.strategies, route);
    context.services.settings(); // missing settings fail here, before any operation (500, logged)
    if (marker.complete) return ok(await complete(context, marker.complete, source));
    if (marker.multipart) return ok(await runMultipart(context, marker.multipart, body, source));
    if (marker.renew) return ok(await renew(context, marker.renew, body, source));
    // A file one POST cannot store is refused before onBeforeUpload runs.
    if (marker.strategy === 'presigned-post') assertPostSize(body.filesize);
    const object = await decideObject(context, body, source);
    if (marker.strategy === 'presigned') return ok(await preparePresigned(context, object, body));
    if (marker.strategy === 'presigned-post') return ok(await preparePost(context, object, body));
    return ok(await prepareToken(context, object));
  };
  // Each request in its operation's span (`telemetry.ts`); a preparation counted once it is answered.
  const handle = (body: UploadRequestBody, source: RequestSource): Promise<JsonAnswer> => {
    const { span, operation, strategy } = operationOf(body._upload);
    const attributes = { [ATTR.operation]: operation, [ATTR.strategy]: strategy, ...partCount(body._upload.multipart) };
    return inSpan(span, { route, attributes }, async (active) => {
      const answer = await run(body, source);
      const key = (answer.body as { key?: unknown }).key;
      if (typeof key === 'string') active.setAttribute(ATTR.key, key);
      if (span === 'upbeam.prepare') countPreparation(route, strategy);
      return answer;
    });
  };
  return { handle, admitLargeBody };
}

/**
 * A request's operation for telemetry: its span, `upbeam.operation` and `upbeam.strategy` (`multipart` for
 * a presigned multipart upload's operations, else the marker's strategy).
 */
function operationOf(marker: UploadMarker): { span: SpanName; operation: string; strategy: string } {
  if (marker.complete) return { span: 'upbeam.complete', operation: 'complete', strategy: marker.strategy };
  if (marker.renew) return { span: 'upbeam.renew', operation: 'renew', strategy: marker.strategy };
  if (!marker.multipart) return { span: 'upbeam.prepare', operation: 'prepare', strategy: marker.strategy };
  // The action is the browser's text until the operation checks it: an unknown one is named so (and refused).
  const { action } = marker.multipart;
  if (!Object.hasOwn(MULTIPART_SPANS, action)) return { span: 'upbeam.prepare', operation: 'multipart.unknown', strategy: 'multipart' };
  return { span: MULTIPART_SPANS[action], operation: `multipart.${action}`, strategy: 'multipart' };
}

/** `upbeam.parts`: how many parts a `sign-parts` asks for or a `complete` lists. */
function partCount(operation: MultipartRequest | undefined): Attributes {
  const parts = operation?.action === 'sign-parts' ? operation.partNumbers : operation?.action === 'complete' ? operation.parts : undefined;
  return Array.isArray(parts) ? { [ATTR.parts]: parts.length } : {};
}

/** The span of each multipart action (`create` is the upload's preparation). */
const MULTIPART_SPANS: Record<MultipartAction, SpanName> = {
  create: 'upbeam.prepare',
  'sign-parts': 'upbeam.sign_parts',
  'list-parts': 'upbeam.list_parts',
  complete: 'upbeam.complete',
  abort: 'upbeam.abort',
};

function assertStrategyAllowed(strategy: UploadStrategy, allowed: readonly UploadStrategy[] | undefined, route: string | undefined): void {
  if (allowed === undefined || allowed.includes(strategy)) return;
  throw new UploadError('INVALID_REQUEST', `The upload route "${route}" does not allow the ${strategy} strategy.`);
}
