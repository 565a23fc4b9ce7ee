/**
 * The README's glue for `@uppy/aws-s3` 6 (`signRequest`) against an Upbeam endpoint: single PUTs only.
 * Kept as the README shows it, so that this test proves the recipe.
 */
import AwsS3 from '@uppy/aws-s3';
import Uppy from '@uppy/core';

/** What `window.uppy6Upload()` resolves: Uppy's result for the one file. */
export interface Uppy6Outcome {
  uploaded: { uploadURL: string | undefined; key: string | undefined }[];
  failed: string[];
}

declare global {
  interface Window {
    uppy6Upload(): Promise<Uppy6Outcome>;
  }
}

window.uppy6Upload = async () => {
  // --- the README's recipe ---
  const uppy = new Uppy();
  uppy.use(AwsS3, {
    shouldUseMultipart: false,
    generateObjectKey: (file) => file.id, // Uppy's proposed key: here only a way back to the file
    async signRequest(request) {
      const file = uppy.getFile(request.key);
      const response = await fetch('/api/s3-upload', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          filename: file.name,
          filetype: file.type || 'application/octet-stream',
          filesize: file.size, // required when the server sets maxFileSize
          _upload: { strategy: 'presigned' },
        }),
      });
      const answer = await response.json();
      if (!response.ok) throw new Error(answer.error);
      return { url: answer.url, key: answer.key, headers: answer.headers }; // the server's key and signed headers
    },
  });
  // --- end of the recipe ---
  const file = (document.getElementById('file') as HTMLInputElement).files![0]!;
  uppy.addFile({ name: file.name, type: file.type, data: file });
  const result = await uppy.upload();
  return {
    uploaded: (result?.successful ?? []).map((done) => ({
      uploadURL: done.uploadURL,
      key: (done.response?.body as { key?: string } | undefined)?.key,
    })),
    failed: (result?.failed ?? []).map((failure) => String(failure.error)),
  };
};
