'use client';
import type { RouteResultData, TrackedFile } from '@upbeam/upload-client';
import type { AnyRoutes, RouteName } from '@upbeam/upload-protocol';
import { lazy, memo, Suspense, useEffect, useMemo, useRef, type ReactNode } from 'react';
import type { UseS3Upload } from '../use-s3-upload';
import { useTrackedFile } from '../use-tracked-file';
import { useAllTrackedIds } from '../use-tracked-ids';
import { localeTag, withDefaults } from './labels';
import { partProps, rootProps, type UploadAppearance } from './parts';
import { clearThumbnails } from './thumbnail';
import { sameRowProps, UploadRow, type RowActions, type UploadRowProps } from './upload-row';
import { useWarmNumberFormats } from './warm-number-formats';

type RowProps = Omit<UploadRowProps, 'file'> & { tracker: UseS3Upload['tracker']; id: string };

/**
 * From this many files the list mounts only the rows in view (TanStack Virtual, in a chunk loaded then: the
 * list of a few files ships none of it); below it, every row, the browser skipping the style and layout of
 * those out of view (`content-visibility: auto`).
 */
export const VIRTUALIZE_FROM = 100;

/**
 * Rows drawn while the virtualized rows' chunk loads, for a list that had fewer rows before (a folder of
 * thousands added at once): about a view's worth of 72 px rows. Each row mounted costs its render and its
 * subscription in that one frame (measured with 100: bench/notes/lists-at-scale.md, "How much of the main
 * thread the listeners take").
 */
const FIRST_ROWS = 20;

/** The virtualized rows: their own chunk, loaded the first time a list reaches `VIRTUALIZE_FROM` files. */
const VirtualRows = lazy(() => import('./virtual-rows'));

/** A row that reads its own file: it renders again when this file changes (or its place), and the list does not. */
const TrackedRow = memo(function TrackedRow({ tracker, id, ...row }: RowProps) {
  const file = useTrackedFile(tracker, id);
  return file ? <UploadRow file={file} {...row} /> : null;
}, sameRowProps);

/** Props of {@link UploadList}. */
export interface UploadListProps<R extends AnyRoutes = AnyRoutes, N extends RouteName<R> = RouteName<R>> extends UploadAppearance {
  /** The uploads to list: `useS3Upload()`'s return (the same one a drop zone or button adds to). */
  upload: UseS3Upload<RouteResultData<R, N>>;
  /**
   * More to show under a file (its URL, the server's answer…). Give a stable function (defined outside the
   * component, or `useCallback`): rows are memoized.
   */
  details?: (file: TrackedFile<RouteResultData<R, N>>) => ReactNode;
}

/** The look, kept the same object while its parts are: rows are memoized on it. */
export function useStableAppearance(props: UploadAppearance): UploadAppearance {
  const { theme, unstyled, className, classNames, locale } = props;
  return useMemo(() => ({ theme, unstyled, className, classNames, locale }), [theme, unstyled, className, classNames, locale]);
}

/**
 * One row per file of `upload`, in the order added: a preview of an image or a video's first frame (`drawPreview` of
 * `@upbeam/upload-client/preview`, loaded with the first such row), name or relative path, size,
 * progress with speed and time left, status word, and its buttons: pause and resume (a multipart upload),
 * cancel (until it ends), retry (failed or cancelled), remove (ended); a failed file's error in words.
 * From 100 files (`VIRTUALIZE_FROM`) only the rows in view of the page (or of the nearest scrolling box) are
 * mounted, with TanStack Virtual loaded then in a chunk of its own; each row has `aria-posinset` and
 * `aria-setsize`, the focused row stays mounted and Tab still reaches every row in turn. Below that, every
 * row is mounted and those out of view are skipped by the browser (`content-visibility: auto`). A row renders
 * again only when its own file changes, and the list only when a file is added or removed.
 */
export function UploadList<R extends AnyRoutes = AnyRoutes, N extends RouteName<R> = RouteName<R>>(props: UploadListProps<R, N>) {
  const { upload, details } = props;
  const appearance = useStableAppearance(props);
  const labels = useMemo(() => withDefaults(props.labels, props.locale), [props.labels, props.locale]);
  const { cancel, pause, resume, retry, remove } = upload;
  const actions = useMemo<RowActions>(() => ({ cancel, pause, resume, retry, remove }), [cancel, pause, resume, retry, remove]);
  const ids = useAllTrackedIds(upload.tracker);
  const locale = localeTag(appearance.locale);
  useWarmNumberFormats(locale);
  // Made again only when a file is added or removed (or the look changes): a file's progress renders its own
  // row (TrackedRow reads it), not this list of thousands.
  const row = useMemo(() => {
    const shared = {
      tracker: upload.tracker,
      actions,
      labels,
      appearance,
      locale,
      details: details as ((file: TrackedFile<never>) => ReactNode) | undefined,
    };
    return (id: string, place?: UploadRowProps['place']) => <TrackedRow key={id} id={id} place={place} {...shared} />;
  }, [upload.tracker, actions, labels, appearance, locale, details]);
  // Rows the list drew last, all of its files while it had fewer than VIRTUALIZE_FROM: the rows that stand in
  // while the chunk loads are never fewer (a list growing past 100 does not shrink for a frame).
  const drawn = useRef(0);
  useEffect(() => {
    if (ids.length < VIRTUALIZE_FROM) drawn.current = ids.length;
    // Emptied (Clear list): the previews its rows showed are closed, not kept for rows that will not come back.
    if (ids.length === 0) clearThumbnails();
  }, [ids]);
  if (ids.length === 0) return null;
  const listProps = { ...rootProps('list', appearance), 'aria-label': labels.list };
  const all = (shown: readonly string[]) => <ul {...listProps}>{shown.map((id) => row(id))}</ul>;
  if (ids.length < VIRTUALIZE_FROM) return all(ids);
  // While the chunk loads (once), the first rows stand in: never thousands of rows mounted at once.
  return (
    <Suspense fallback={all(ids.slice(0, Math.max(FIRST_ROWS, drawn.current)))}>
      <VirtualRows ids={ids} listProps={listProps} row={(id, place) => row(id, { ...place, setSize: ids.length })} />
    </Suspense>
  );
}
