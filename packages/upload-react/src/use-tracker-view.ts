'use client';
import type { TrackedFile, UploadSummary, UploadTracker } from '@upbeam/upload-client';
import { useEffect, useState } from 'react';

/** One snapshot of a tracker: its files and their totals, read together. */
export interface TrackerView {
  files: readonly TrackedFile[];
  summary: UploadSummary;
}

/**
 * The tracker's files and summary, as one state updated through `schedule` (`useTransitionPacer`): a render
 * sees the files and the totals of the same moment, and the page renders a long list in a transition, a
 * snapshot at a time, rather than in one task (as `useSyncExternalStore` does). While files upload, a snapshot
 * is paced (the list keeps about a twentieth of the main thread); once none is queued or uploading (all ended,
 * cancelled or paused) it is drawn as soon as the last render is, so that the totals never lag behind rows
 * that read their own file (`useTrackedFile`) at the end. A snapshot that did not change renders nothing.
 */
export function useTrackerView(tracker: UploadTracker, schedule: (update: () => void, paced?: boolean) => void): TrackerView {
  const [view, setView] = useState(() => read(tracker));
  useEffect(() => {
    // Reads the tracker when the update runs, so a queued update shows the latest snapshot.
    const update = () => setView((last) => (same(last, tracker) ? last : read(tracker)));
    const unsubscribe = tracker.subscribe(() => schedule(update, uploading(tracker)));
    // What changed between the render committed here (the first) and this subscription. `view` is left out of
    // the dependencies on purpose: the subscription lasts as long as the tracker.
    if (!same(view, tracker)) schedule(update, uploading(tracker));
    return unsubscribe;
  }, [tracker, schedule]);
  return view;
}

function read(tracker: UploadTracker): TrackerView {
  return { files: tracker.getSnapshot(), summary: tracker.getSummary() };
}

function same(view: TrackerView, tracker: UploadTracker): boolean {
  return view.files === tracker.getSnapshot() && view.summary === tracker.getSummary();
}

/** Whether a file is queued or uploading. */
function uploading(tracker: UploadTracker): boolean {
  const { count } = tracker.getSummary();
  return count.queued + count.uploading > 0;
}
