// upload.ts: no framework, one file from an <input type="file">, prepared by the server's /api/s3-upload
import { uploadFile } from '@upbeam/upload-client';

const input = document.querySelector<HTMLInputElement>('input[type=file]')!;
const bar = document.querySelector<HTMLProgressElement>('progress')!;

input.addEventListener('change', async () => {
  const file = input.files?.[0];
  if (!file) return;
  const { url, key } = await uploadFile(file, {
    onProgress: ({ progress }) => (bar.value = progress), // 0 to 100
  });
  console.log(`stored as ${key}: ${url}`);
});
