'use client';
import type { TrackedFile } from '@upbeam/upload-client';
import { useCallback, useSyncExternalStore } from 'react';

/**
 * What {@link useTrackedFile} reads: the `tracker` of {@link useS3Upload} (or an `UploadTracker` of
 * `@upbeam/upload-client`). Stable for the life of the component that called `useS3Upload`, so a memoized
 * row can take it as a prop.
 */
export interface TrackedFileStore<ServerData = unknown> {
  /** Registers a listener called after changes, at most once per animation frame; returns the unsubscribe function. */
  subscribe: (listener: () => void) => () => void;
  /** The tracked file with this id (the same object until it changes), or `undefined` once removed. */
  getFile: (id: string) => TrackedFile<ServerData> | undefined;
}

/**
 * One tracked file, read by the component that shows it: the component renders again when this file
 * changes (its progress, status, result), not when another file does. With thousands of files, a list
 * that passes only ids to memoized rows, each reading its file here, renders a row per changed file
 * instead of the whole list.
 *
 * @param tracker - The `tracker` returned by `useS3Upload`.
 * @param id - The file's id (`TrackedFile.id`).
 * @returns The file, or `undefined` when it is not (or no longer) tracked (after `remove(id)` or `resetFiles()`).
 *
 * @example
 * const Row = memo(function Row({ tracker, id }: { tracker: TrackedFileStore; id: string }) {
 *   const file = useTrackedFile(tracker, id);
 *   return file ? <li>{file.file.name}: <progress value={file.progress} max={100} /></li> : null;
 * });
 */
export function useTrackedFile<ServerData = unknown>(tracker: TrackedFileStore<ServerData>, id: string): TrackedFile<ServerData> | undefined {
  const getFile = useCallback(() => tracker.getFile(id), [tracker, id]);
  return useSyncExternalStore(tracker.subscribe, getFile, getFile);
}
