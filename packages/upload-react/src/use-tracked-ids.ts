'use client';
import { useSyncExternalStore } from 'react';
import type { TrackedFileStore } from './use-tracked-file';

/**
 * What {@link useTrackedIds} reads: the `tracker` of {@link useS3Upload} (or an `UploadTracker` of
 * `@upbeam/upload-client`).
 */
export interface TrackedIdsStore {
  /** Registers a listener called after changes, at most once per animation frame; returns the unsubscribe function. */
  subscribe: TrackedFileStore['subscribe'];
  /** The tracked files' ids, in the order added: the same array until a file is added or removed. */
  getIds: () => readonly string[];
}

/**
 * The ids of the tracked files, in the order added, for a list that renders one row per file: the
 * component renders again when a file is added or removed, not when a file's progress or status changes.
 * Give each id to a memoized row that reads its own file with {@link useTrackedFile}: with thousands of
 * files, a progress event then renders the one row whose file changed, and never the whole list.
 *
 * @param tracker - The `tracker` returned by `useS3Upload`.
 * @returns The ids (`TrackedFile.id`), the same array until the list changes; empty before any file is added.
 *
 * @example
 * function List({ tracker }: { tracker: TrackedFileStore & TrackedIdsStore }) {
 *   const ids = useTrackedIds(tracker);
 *   return <ul>{ids.map((id) => <Row key={id} tracker={tracker} id={id} />)}</ul>;
 * }
 */
export function useTrackedIds(tracker: TrackedIdsStore): readonly string[] {
  return useSyncExternalStore(tracker.subscribe, tracker.getIds, tracker.getIds);
}
