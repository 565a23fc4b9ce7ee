/**
 * One presigned POST (S3 POST Object): the form (`postForm`: the answer's fields, then the file) sent with
 * `XMLHttpRequest` for its upload progress, and storage's answer read. The POST counterpart of `putBody`.
 */
import type { PresignedPostUploadResponse } from '@upbeam/upload-protocol';
import { isUploadClientError, NO_ANSWER_MESSAGE } from '../errors';
import { sendRequest } from '../http-request';
import { withRecovery } from '../recovery';
import { isSuccess, storageAnswerOf } from '../s3-answer';
import { fileBytesSent, formOverheadBound } from './form-progress';
import { postForm } from './post-form';
import { postRefusal } from './post-refusal';

/** A presigned POST to send: the answer's `url` and `fields`, and when its policy expires by this browser's clock. */
export interface SignedPost extends Pick<PresignedPostUploadResponse, 'url' | 'fields'> {
  /** When the policy stops being accepted, in milliseconds since the epoch by this browser's clock (`policyExpiry`). */
  expiresAt: number;
}

/**
 * POSTs `file` in the form of `signed` and reads the answer.
 * @param onProgress - Called with the file's bytes sent so far ({@link fileBytesSent}: the form's other bytes
 *   excluded, the last byte held), then with the whole size once storage answered it stored the object.
 * @throws `AbortError` DOMException (`Upload aborted.`) when `signal` aborts.
 * @throws {@link UploadClientError} `STORAGE_ERROR` on a refusal ({@link postRefusal}); `NETWORK_ERROR` when no
 *   answer came (marked `sign-again` once the policy is past its expiry: radosgw's 403 carries no CORS headers).
 */
export async function postObject(signed: SignedPost, file: Blob, signal: AbortSignal | undefined, onProgress: (sent: number) => void): Promise<void> {
  const { size } = file;
  const overhead = () => formOverheadBound(signed.fields, file);
  let xhr: XMLHttpRequest;
  try {
    xhr = await sendRequest({
      method: 'POST',
      url: signed.url,
      // The browser sets Content-Type: multipart/form-data with its boundary.
      headers: {},
      body: postForm(signed, file),
      signal,
      noAnswer: NO_ANSWER_MESSAGE,
      onProgress: (loaded, total) => onProgress(fileBytesSent(loaded, total, size, overhead)),
    });
  } catch (error) {
    const expired = isUploadClientError(error) && error.code === 'NETWORK_ERROR' && Date.now() >= signed.expiresAt;
    throw expired ? withRecovery(error, 'sign-again') : error;
  }
  const answer = storageAnswerOf(xhr);
  if (!isSuccess(answer)) throw postRefusal(answer, signed.expiresAt);
  onProgress(size);
}
