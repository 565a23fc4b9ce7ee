'use client';
import { formatBytes, type TrackedFile } from '@upbeam/upload-client';
import { memo, type ReactNode } from 'react';
import { useFileRate } from './file-rate';
import { errorText } from './format';
import type { UploadLabels } from './labels';
import { partProps, type UploadAppearance } from './parts';
import { Thumbnail } from './thumbnail';
import type { RowPlace } from './virtual-rows';

/**
 * A row out of view is neither laid out nor painted (`content-visibility: auto`), its height guessed until
 * first shown: a list of thousands of files costs the rows in view. Inline, so that `unstyled` keeps it.
 */
const OFFSCREEN_SKIPPED = { contentVisibility: 'auto', containIntrinsicSize: 'auto 4.5rem' } as const;

/** What a row's buttons do, by file id (stable functions: the hook's own). */
export interface RowActions {
  cancel: (id: string) => void;
  pause: (id: string) => void;
  resume: (id: string) => void;
  retry: (id: string) => void;
  remove: (id: string) => void;
}

export interface UploadRowProps {
  file: TrackedFile<unknown>;
  actions: RowActions;
  labels: UploadLabels;
  appearance: UploadAppearance;
  locale: string | undefined;
  details?: (file: TrackedFile<never>) => ReactNode;
  /** In a virtualized list: the row's place, and the list's length (`aria-posinset`, `aria-setsize`). */
  place?: RowPlace & { setSize: number };
}

type Placed = UploadRowProps['place'];

/** The same place: each field equal (a virtualized list gives every row a new place object on each render). */
const samePlace = (a: Placed, b: Placed): boolean =>
  a === b || (!!a && !!b && a.index === b.index && a.top === b.top && a.setSize === b.setSize && a.measure === b.measure);

/**
 * `memo`'s comparison for a row: every prop the same object, `place` the same by its fields. Without it a
 * virtualized list's scrolling would render again every mounted row, whose file did not change.
 */
export function sameRowProps<P extends { place?: Placed }>(prev: P, next: P): boolean {
  const keys = Object.keys(next) as (keyof P)[];
  if (keys.length !== Object.keys(prev).length) return false;
  return keys.every((key) => (key === 'place' ? samePlace(prev.place, next.place) : Object.is(prev[key], next[key])));
}

/** A virtual row's style: placed at its top within the list (CSS pixels), the rows between not mounted. */
const placed = (top: number) => ({ position: 'absolute', top: 0, insetInlineStart: 0, width: '100%', transform: `translateY(${top}px)` }) as const;

/**
 * One file: thumbnail, name (or relative path), size, progress with speed and time left while it uploads,
 * status word, its buttons (each naming the file), and the error in words when it failed. The row carries
 * `data-status`, `data-progress` (0-100), `data-name` (the name shown), and for a file kept with `persist`
 * `data-restored="true"` (brought back after a reload) and `data-persistence` (how it is kept); in a virtualized
 * list, `data-index` (0-based), `aria-posinset` and `aria-setsize`. A failed or
 * cancelled file shows no bar: its bytes are not stored. Memoized: a row renders again only when its file's
 * snapshot (or the look) changes.
 */
export const UploadRow = memo(function UploadRow({ file, actions, labels, appearance, locale, details, place }: UploadRowProps) {
  const { status, id } = file;
  const name = file.path ?? file.file.name;
  const speed = useFileRate(file);
  const running = status === 'uploading' || status === 'paused';
  const ended = status === 'done' || status === 'error' || status === 'aborted';
  const button = (text: string, onPress: () => void, kind: string) => (
    <button type="button" {...partProps('button', appearance)} data-action={kind} aria-label={labels.fileAction(text, name)} onClick={onPress}>
      {text}
    </button>
  );
  const facts = [ended && status !== 'done' ? formatBytes(file.size, { locale }) : `${formatBytes(file.uploaded, { locale })} / ${formatBytes(file.size, { locale })}`];
  if (status === 'uploading') facts.push(labels.percent(Math.floor(file.progress)));
  if (speed > 0) {
    facts.push(formatBytes(speed, { perSecond: true, locale }));
    facts.push(labels.timeLeft((file.size - file.uploaded) / speed));
  }
  return (
    <li
      {...partProps('row', appearance)}
      data-status={status}
      data-progress={file.progress}
      data-name={name}
      data-restored={file.restored ? 'true' : undefined}
      data-persistence={file.persistence}
      style={place ? placed(place.top) : OFFSCREEN_SKIPPED}
      ref={place?.measure}
      data-index={place?.index}
      aria-posinset={place ? place.index + 1 : undefined}
      aria-setsize={place?.setSize}
    >
      <Thumbnail file={file.file} className={partProps('thumbnail', appearance).className} />
      <div className={appearance.unstyled ? undefined : 'upbeam-row-body'}>
        <div className={appearance.unstyled ? undefined : 'upbeam-row-head'}>
          <span {...partProps('name', appearance)} title={name}>
            {name}
          </span>
          <span {...partProps('status', appearance)}>{labels.status[status]}</span>
        </div>
        {(status === 'queued' || running || status === 'done') && (
          <progress {...partProps('progress', appearance)} max={100} value={file.progress} aria-label={labels.fileProgress(name)} />
        )}
        <div className={appearance.unstyled ? undefined : 'upbeam-row-foot'}>
          <span {...partProps('details', appearance)}>{facts.join(labels.separator)}</span>
          <span {...partProps('actions', appearance)}>
            {running && file.multipart && (status === 'paused' ? button(labels.resume, () => actions.resume(id), 'resume') : button(labels.pause, () => actions.pause(id), 'pause'))}
            {(running || status === 'queued') && button(labels.cancel, () => actions.cancel(id), 'cancel')}
            {(status === 'error' || status === 'aborted') && button(labels.retry, () => actions.retry(id), 'retry')}
            {ended && button(labels.remove, () => actions.remove(id), 'remove')}
          </span>
        </div>
        {status === 'error' && <p {...partProps('error', appearance)}>{errorText(file.error, labels)}</p>}
        {details?.(file as TrackedFile<never>)}
      </div>
    </li>
  );
}, sameRowProps);
