/**
 * Uppy (`@uppy/core` + `@uppy/aws-s3` 5) uploading through an Upbeam handler with the adapter of
 * `@upbeam/upload-client/uppy`: a presigned PUT for small files, a presigned multipart upload for large ones.
 */
import AwsS3 from '@uppy/aws-s3';
import Uppy from '@uppy/core';
import { uppyS3Options, type UppyS3AdapterOptions } from '@upbeam/upload-client/uppy';

/** What `window.uppyUpload()` resolves: Uppy's result for the one file, and every progress event's bytes. */
export interface UppyOutcome {
  uploaded: { uploadURL: string | undefined; location: string | undefined }[];
  failed: string[];
  progress: number[];
  partsUploaded: number[];
}

/** What the test asks of `window.uppyUpload()`: the adapter's options, and when to cancel. */
export interface UppyUploadInput {
  adapter: UppyS3AdapterOptions;
  /** Cancel (remove the file) once this many parts are stored; Uppy then aborts the multipart upload. */
  cancelAfterParts?: number;
  /** Pause once this many parts are stored, and resume 300 ms later: Uppy lists the stored parts. */
  pauseAfterParts?: number;
}

declare global {
  interface Window {
    uppyUpload(input: UppyUploadInput): Promise<UppyOutcome>;
  }
}

window.uppyUpload = async ({ adapter, cancelAfterParts, pauseAfterParts }) => {
  const file = (document.getElementById('file') as HTMLInputElement).files![0]!;
  const options = uppyS3Options(adapter);
  const uppy = new Uppy().use(AwsS3, { ...options, limit: 4 });
  const progress: number[] = [];
  const partsUploaded: number[] = [];
  const id = uppy.addFile({ name: file.name, type: file.type, data: file });
  uppy.on('upload-progress', (_, { bytesUploaded }) => void progress.push(bytesUploaded));
  uppy.on('s3-multipart:part-uploaded', (_, part) => {
    partsUploaded.push(part.PartNumber);
    if (partsUploaded.length === cancelAfterParts) uppy.removeFile(id);
    if (partsUploaded.length === pauseAfterParts) {
      uppy.pauseResume(id);
      setTimeout(() => uppy.pauseResume(id), 300);
    }
  });
  const result = await uppy.upload();
  return {
    uploaded: (result?.successful ?? []).map((done) => ({
      uploadURL: done.uploadURL,
      location: (done.response?.body as { location?: string } | undefined)?.location,
    })),
    failed: (result?.failed ?? []).map((failure) => String(failure.error)),
    progress,
    partsUploaded,
  };
};
