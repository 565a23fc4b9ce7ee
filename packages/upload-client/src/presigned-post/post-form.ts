/**
 * The body of a presigned POST (S3 POST Object): the answer's form fields in their order, unchanged, then the
 * file as the last field (`file`), as S3 requires (fields after the file are ignored). One definition, read by
 * the page's XHR send and by the background service worker's Background Fetch request.
 */
import type { PresignedPostUploadResponse } from '@upbeam/upload-protocol';

/** The `multipart/form-data` body for `answer.url`: `answer.fields`, then `file` named `file`. */
export function postForm(answer: Pick<PresignedPostUploadResponse, 'fields'>, file: Blob): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(answer.fields)) form.append(name, value);
  form.append('file', file);
  return form;
}
