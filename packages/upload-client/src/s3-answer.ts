/**
 * What S3-compatible storage answers, read in one place: the answer as the page sees it, the one error of a
 * refusal (`STORAGE_ERROR`), and the XML and headers inside it.
 */
import { storageRefusalMessage, UploadClientError } from './errors';

/**
 * A storage answer as the page can read it: what `XMLHttpRequest` gives as `status`, `responseText` and
 * `getAllResponseHeaders()`.
 */
export interface StorageAnswer {
  status: number;
  /** The answer's body (S3 answers XML). */
  body: string;
  /** The raw header block (`name: value` lines), holding only the headers the browser lets the page see. */
  headers: string;
}

/** What the page may read of a finished `XMLHttpRequest`. */
export function storageAnswerOf(xhr: XMLHttpRequest): StorageAnswer {
  return { status: xhr.status, body: xhr.responseText, headers: xhr.getAllResponseHeaders() };
}

/** Whether storage accepted the request (2xx). */
export const isSuccess = (answer: StorageAnswer): boolean => answer.status >= 200 && answer.status < 300;

/**
 * The error of a refused answer: `STORAGE_ERROR` with its `status`, S3's `<Code>` as `answerCode`, its
 * `<Message>` in the message (`Storage refused the upload (403 AccessDenied): Request has expired`) and its
 * `Retry-After` when the page may read it.
 */
export function storageError(answer: StorageAnswer): UploadClientError {
  const { code, message } = parseS3Error(answer.body);
  return new UploadClientError('STORAGE_ERROR', storageRefusalMessage(answer.status, code, message), {
    status: answer.status,
    answerCode: code,
    retryAfter: retryAfterIn(answer.headers),
  });
}

/** The text of the first `<name>` element of an XML body (at most 500 characters). */
const xmlText = (xml: string, name: string): string | undefined =>
  new RegExp(`<${name}>([^<]{1,500})</${name}>`).exec(xml)?.[1];

/** Reads `<Code>` and `<Message>` of an S3 XML error body, e.g. `AccessDenied` / `Request has expired`. */
export function parseS3Error(text: string): { code: string | undefined; message: string | undefined } {
  return { code: xmlText(text, 'Code'), message: xmlText(text, 'Message') };
}

/**
 * The `Retry-After` value in a raw header block (`XMLHttpRequest.getAllResponseHeaders()`), which lists
 * only the headers the browser may show the page. Reading the block instead of `getResponseHeader` keeps
 * the browser from logging "Refused to get unsafe header" when the bucket does not expose it.
 */
export function retryAfterIn(rawHeaders: string): string | undefined {
  return /^retry-after:(.*)/im.exec(rawHeaders)?.[1]?.trim() || undefined;
}

/**
 * The `ETag` value in a raw header block, quotes kept, when the browser lets the page see it: from storage on
 * another origin only if the bucket's CORS rule exposes it (`ExposeHeaders: ["ETag"]`).
 */
export function etagIn(rawHeaders: string): string | undefined {
  return /^etag:(.*)/im.exec(rawHeaders)?.[1]?.trim() || undefined;
}

const XML_ENTITIES: Record<string, string> = { quot: '"', apos: "'", lt: '<', gt: '>', amp: '&' };

/** XML text with its entities and character references decoded (S3 writes an ETag `&quot;…&quot;`). */
function decodeXml(text: string): string {
  return text.replace(/&(#x[\da-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
    if (name[0] !== '#') return XML_ENTITIES[name] ?? entity;
    return String.fromCodePoint(name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1)));
  });
}

/**
 * The decoded text of the first `<name>` element of an S3 XML answer (at most 500 characters), e.g. the
 * `UploadId` of CreateMultipartUpload or the `ETag` of CompleteMultipartUpload; `undefined` when absent.
 */
export function xmlValue(xml: string, name: string): string | undefined {
  const text = xmlText(xml, name);
  return text === undefined ? undefined : decodeXml(text);
}

/** The inner XML of every `<name>` element of an S3 XML answer, e.g. each `<Part>` of ListParts. */
export function xmlElements(xml: string, name: string): string[] {
  return [...xml.matchAll(new RegExp(`<${name}>([\\s\\S]*?)</${name}>`, 'g'))].map((match) => match[1] ?? '');
}
