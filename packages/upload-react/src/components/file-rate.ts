import { TransferRate, type TrackedFile } from '@upbeam/upload-client';
import { useRef } from 'react';

/**
 * One file's upload speed, bytes per second, over the client's sliding window: fed with the bytes its
 * snapshots add. Bytes that fall back (a request failed, progress gave them back) are not counted; 0 when
 * the file is not uploading.
 */
export function useFileRate(file: TrackedFile<unknown>): number {
  const state = useRef<{ rate: TransferRate; uploaded: number }>(null);
  state.current ??= { rate: new TransferRate(), uploaded: file.uploaded };
  const { current } = state;
  if (file.uploaded > current.uploaded) current.rate.add(file.uploaded - current.uploaded);
  current.uploaded = file.uploaded;
  if (file.status !== 'uploading') {
    current.rate.clear();
    return 0;
  }
  return current.rate.bytesPerSecond();
}
