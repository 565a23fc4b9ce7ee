import { describe, expect, it } from 'vitest';
import { uppyS3Options, UPPY_MULTIPART_THRESHOLD } from './uppy';

// The parts of the Uppy adapter that need no endpoint; the calls to one are tested with the real Uppy in
// chromium (examples/interop).

const MiB = 1024 * 1024;
const file = (size: number) => ({ id: 'uppy-file-1', name: 'clip.mp4', type: 'video/mp4', size });

describe('uppyS3Options', () => {
  it("goes multipart over the threshold, Uppy's own 100 MiB by default", () => {
    const options = uppyS3Options();
    expect(UPPY_MULTIPART_THRESHOLD).toBe(100 * MiB);
    expect(options.shouldUseMultipart(file(100 * MiB))).toBe(false);
    expect(options.shouldUseMultipart(file(100 * MiB + 1))).toBe(true);
    expect(uppyS3Options({ multipartThreshold: 0 }).shouldUseMultipart(file(1))).toBe(true);
  });

  it('gives Uppy the part size it creates the upload with: at least 5 MiB, at most 10000 parts', () => {
    expect(uppyS3Options().getChunkSize({ size: 12 * MiB })).toBe(5 * MiB);
    expect(uppyS3Options({ partSize: 8 * MiB }).getChunkSize({ size: 12 * MiB })).toBe(8 * MiB);
    expect(uppyS3Options({ partSize: 1 }).getChunkSize({ size: 12 * MiB })).toBe(5 * MiB);
    const huge = 100_000 * MiB + 1;
    const partSize = uppyS3Options().getChunkSize({ size: huge });
    expect(partSize).toBe(Math.ceil(huge / 10_000));
    // Uppy cuts floor(size / chunk) parts of the chunk size (plus the rest): never more than 10000.
    expect(Math.ceil(huge / partSize)).toBeLessThanOrEqual(10_000);
  });

  it.each(['signPart', 'listParts', 'completeMultipartUpload', 'abortMultipartUpload'] as const)(
    '%s refuses an upload this page did not create, before any request',
    async (call) => {
      const options = uppyS3Options({ endpoint: { url: 'http://127.0.0.1:9/never' } });
      await expect(options[call](file(12 * MiB), { uploadId: 'other', key: 'k', partNumber: 1, parts: [] })).rejects.toMatchObject({
        name: 'UploadClientError',
        code: 'INVALID_OPTIONS',
        message: 'No ticket for multipart upload other of clip.mp4: start it again.',
      });
    },
  );
});

describe('uppyS3Options: the endpoint unreachable', () => {
  it('rejects with NETWORK_ERROR naming the endpoint', async () => {
    // Port 9 (discard) on 127.0.0.1: nothing listens there, the connection is refused.
    const options = uppyS3Options({ endpoint: { url: 'http://127.0.0.1:9/api/s3-upload' } });
    await expect(options.getUploadParameters(file(1))).rejects.toMatchObject({
      name: 'UploadClientError',
      code: 'NETWORK_ERROR',
      message: 'No answer from the upload endpoint http://127.0.0.1:9/api/s3-upload.',
    });
  });
});
