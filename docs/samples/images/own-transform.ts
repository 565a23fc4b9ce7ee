import { uploadFile, type FileTransform } from '@upbeam/upload-client';

/** A transform of your own: any function from the picked File to the File to send. */
const gzipText: FileTransform = async (file, { signal }) => {
  if (file.type !== 'text/csv') return file; // the file itself: sent unchanged
  const compressed = file.stream().pipeThrough(new CompressionStream('gzip'));
  const body = await new Response(compressed).blob();
  signal.throwIfAborted(); // the upload was cancelled meanwhile
  return new File([body], `${file.name}.gz`, { type: 'application/gzip' });
};

export async function sendReport(file: File): Promise<string> {
  const { key } = await uploadFile(file, { route: 'reports', transform: gzipText });
  return key;
}
