/** The XML bodies of the S3 requests the temporary-token session sends (S3 API reference, 2006-03-01). */
import type { CompletedPart } from '@upbeam/upload-protocol';

const S3_NAMESPACE = 'http://s3.amazonaws.com/doc/2006-03-01/';

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text escaped for an XML element: `&`, `<`, `>`, `"`, `'`. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => XML_ESCAPES[character] ?? character);
}

/**
 * CompleteMultipartUpload's body: every part with its ETag (quotes included), in ascending part number
 * (S3 answers `InvalidPartOrder` otherwise), and with its checksum in `element` (`ChecksumCRC32C`...: the
 * upload was created with a checksum other than MD5): S3 refuses a Complete that leaves one out (`InvalidPart`).
 */
export function completeMultipartBody(parts: readonly CompletedPart[], element?: string): string {
  const sorted = [...parts].sort((a, b) => a.partNumber - b.partNumber);
  const items = sorted.map((part) => {
    const checksum = element && part.checksum ? `<${element}>${escapeXml(part.checksum)}</${element}>` : '';
    return `<Part><PartNumber>${part.partNumber}</PartNumber><ETag>${escapeXml(part.etag)}</ETag>${checksum}</Part>`;
  });
  return `<CompleteMultipartUpload xmlns="${S3_NAMESPACE}">${items.join('')}</CompleteMultipartUpload>`;
}

/** PutObjectTagging's body: the tag set (S3 allows 10 tags an object). */
export function taggingBody(tags: readonly { Key: string; Value: string }[]): string {
  const items = tags.map((tag) => `<Tag><Key>${escapeXml(tag.Key)}</Key><Value>${escapeXml(tag.Value)}</Value></Tag>`);
  return `<Tagging xmlns="${S3_NAMESPACE}"><TagSet>${items.join('')}</TagSet></Tagging>`;
}
