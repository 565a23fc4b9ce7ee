/**
 * A route's `context`: what its `onBeforeUpload` returned at preparation (but its decisions `key`,
 * `metadata` and `contentDisposition`, which the object itself keeps, and `subject`, whose limits count it), given to its `onUploadComplete`
 * (another request, maybe on another instance). It travels as JSON in the upload's receipt or multipart
 * ticket, signed with them: the browser can read it but not change it, so it holds ids, never secrets.
 */
import type { BeforeUploadResult, BeforeUploadReturn } from './hooks';

/** Largest context carried, in bytes of JSON: it rides in the receipt or ticket the browser sends back. */
export const MAX_CONTEXT_BYTES = 1024;

/**
 * The `context` a route's `onUploadComplete` gets for what its `onBeforeUpload` returns (`C`): that object
 * without `key`, `metadata`, `contentDisposition` and `subject` (as JSON gives it back: a `Date` arrives as its ISO
 * text), `undefined` when it returns nothing, `unknown` when the route's types are not known (a route
 * written without `defineRoute`).
 */
export type HookContext<C> = 0 extends 1 & C ? unknown : C extends void ? undefined : Omit<C, keyof BeforeUploadResult>;

const encoder = new TextEncoder();

/**
 * The JSON text of what `onBeforeUpload` returned, but its decisions (`key`, `metadata`,
 * `contentDisposition`, `subject`), to carry to the completion; undefined for nothing.
 * @throws TypeError when JSON cannot hold it; RangeError past {@link MAX_CONTEXT_BYTES} (both a bug of the
 *   app: answered 500 and logged).
 */
export function contextText(returned: BeforeUploadReturn): string | undefined {
  if (returned === undefined || returned === null) return undefined;
  // The decisions are the object's own (its key, stored metadata and disposition): not carried twice.
  // `subject` is whose limits count the upload: not the route's context either.
  const { key, metadata, contentDisposition, subject, ...context } = returned;
  const text = JSON.stringify(context);
  if (text === undefined) throw new TypeError('onBeforeUpload returned a value JSON cannot hold.');
  if (encoder.encode(text).byteLength > MAX_CONTEXT_BYTES) {
    throw new RangeError(`onBeforeUpload returned more than ${MAX_CONTEXT_BYTES} bytes of JSON: its context travels with the upload (ids, not records).`);
  }
  return text;
}

/** The context carried as `text` (from a verified receipt or ticket); undefined without one. */
export function readContext(text: string | undefined): unknown {
  return text === undefined ? undefined : JSON.parse(text);
}
