/** Readers of what S3-compatible storage answers to a refused request. */

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
