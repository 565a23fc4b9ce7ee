/**
 * The single PUT of both strategies: the whole file in one request, through the same send loop as a part
 * (sign -> send -> read the answer -> recover). The strategies differ only in how they sign it.
 */
import type { ChecksumRefusals } from './checksum-refusal';
import { putBody, type AnswerRecovery, type SignedPut } from './put-object';
import type { RetryListener } from './retry';
import { sendLoop } from './send-loop';
import type { UploadContext } from './types';

/**
 * PUTs `upload.file` with the request `sign` gives, until storage accepts it or the retries are spent.
 * Progress is the bytes of the request in flight; when it fails or is cancelled they leave `uploaded`
 * (back to 0: storage keeps nothing of an unfinished PUT).
 * @param sign - The signed PUT; `fresh` when the last signature cannot succeed. A failure there is final.
 * @param recover - Reads a refusal first (the token session repairs a skewed clock or expired credentials).
 * @param onRetry - Hears of each retry of the PUT (after the upload's own `onRetry`).
 * @param checksums - For a PUT sent with a checksum: its refusal is hashed again once (`rehash`), then final.
 * @throws as {@link putBody}, after the last attempt; `AbortError` when cancelled.
 */
export async function putWholeFile(
  upload: UploadContext,
  sign: (fresh: boolean, rehash: boolean) => Promise<SignedPut>,
  recover?: AnswerRecovery,
  onRetry?: RetryListener,
  checksums?: ChecksumRefusals,
): Promise<void> {
  const { file, options } = upload;
  await sendLoop(
    {
      sign,
      send: (signed) => putBody(signed, file, options.signal, upload.report, recover),
      lost: () => upload.report(0),
      checksums,
    },
    onRetry
      ? {
          ...options,
          onRetry: (event) => {
            options.onRetry?.(event);
            onRetry(event);
          },
        }
      : options,
  );
}
