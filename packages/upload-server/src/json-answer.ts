/**
 * The handler's answers: every one is a status and a JSON body (and, for a 405, an `Allow` header). The
 * handler's logic produces this shape once; the Fetch handler turns it into a `Response`
 * ({@link toResponse}), and the node adapter writes it to Node's `ServerResponse` itself, without a Fetch
 * `Response` in between (`adapters/node/response.ts`).
 */

/** One answer of the handler. */
export interface JsonAnswer {
  /** HTTP status. */
  status: number;
  /** Serialized with `JSON.stringify`, sent as `application/json`. */
  body: unknown;
  /** Headers besides `content-type` (names in lower case). */
  headers?: Record<string, string>;
}

/** A 200 answer of `body`. */
export function ok(body: unknown): JsonAnswer {
  return { status: 200, body };
}

/** The answer as a Fetch `Response`: `Response.json(body, { status, headers })`. */
export function toResponse(answer: JsonAnswer): Response {
  return Response.json(answer.body, { status: answer.status, headers: answer.headers });
}
