'use client';
import { useSyncExternalStore } from 'react';
import { useGrowingList } from './use-growing-list';
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
 * As `useS3Upload`'s `files`, a batch of thousands of files added at once reaches the list some ids a frame
 * (100 first, then as many as fit in about 25 ms of work beside what the rows already shown cost, 20 to
 * 1,000), so that no render mounts thousands of rows in one task; removals show at once.
 *
 * @param tracker - The `tracker` returned by `useS3Upload`.
 * @returns The ids (`TrackedFile.id`), the same array until the list changes (or grows by its next rows);
 *   empty before any file is added.
 *
 * @example
 * function List({ tracker }: { tracker: TrackedFileStore & TrackedIdsStore }) {
 *   const ids = useTrackedIds(tracker);
 *   return <ul>{ids.map((id) => <Row key={id} tracker={tracker} id={id} />)}</ul>;
 * }
 */
export function useTrackedIds(tracker: TrackedIdsStore): readonly string[] {
  return useGrowingList(useAllTrackedIds(tracker));
}

/**
 * Every tracked id at once, for a list that mounts only the rows in view (the components' virtualized
 * `UploadList`): it never mounts thousands of rows, and its `aria-setsize` is the whole count from the start.
 * Not exported from the package.
 */
export function useAllTrackedIds(tracker: TrackedIdsStore): readonly string[] {
  return useSyncExternalStore(tracker.subscribe, tracker.getIds, tracker.getIds);
}
