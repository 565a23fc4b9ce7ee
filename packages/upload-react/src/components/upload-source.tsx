'use client';
import type { RouteResultData, TrackedFile } from '@upbeam/upload-client';
import type { AnyRoutes, RouteName, UploadResult } from '@upbeam/upload-protocol';
import { useEffect, useRef, useState } from 'react';
import type { FileRejection, FileRules } from '@upbeam/upload-client/drop-zone';
import type { DroppedFile, DropZoneOptions } from '../use-drop-zone';
import { useRouteRules } from '../use-route-rules';
import { useS3Upload, type UseS3Upload, type UseS3UploadOptions } from '../use-s3-upload';

/**
 * Where a component's uploads come from: its own `useS3Upload` (from `route` and `options`), or one the app
 * already holds (`upload`), shared with other components. The callbacks are called by the component that
 * owns the uploads (never by one given `upload`: give the callbacks to the hook's owner).
 */
export interface UploadSourceProps<R extends AnyRoutes = AnyRoutes, N extends RouteName<R> = RouteName<R>> {
  /** An upload route of the endpoint (typed with `<typeof routes>`): its rules are read from the endpoint's GET. */
  route?: N;
  /** Options of the component's own `useS3Upload` (endpoint, strategy, concurrency, multipart…). */
  options?: Omit<UseS3UploadOptions<R, N>, 'route'>;
  /** Uploads held by the app (`useS3Upload()`'s return): the component shows and adds to these instead of its own. */
  upload?: UseS3Upload<RouteResultData<R, N>>;
  /** Called once per file stored, with its result (`serverData`: what the route's `onUploadComplete` returned). */
  onUploadComplete?: (result: UploadResult<RouteResultData<R, N>>, file: TrackedFile<RouteResultData<R, N>>) => void;
  /** Called once per file that failed (not for a cancelled one), with its error. */
  onError?: (error: unknown, file: TrackedFile<RouteResultData<R, N>>) => void;
}

/** The uploads a component shows: `props.upload`, or its own hook's (reporting outcomes to the callbacks). */
export function useUploadSource<R extends AnyRoutes, N extends RouteName<R>>(props: UploadSourceProps<R, N>): UseS3Upload<RouteResultData<R, N>> {
  // Given `upload`, the component's own hook (called all the same: a hook is never conditional) stays empty
  // and keeps no queue: with `persist` it would restore the kept files and upload them unseen, beside the
  // owner's tracker, which would show them as uploading in another tab (the `<Uploader>` hands its options
  // and its uploads to its drop zone).
  const { persist, ...withoutPersist } = props.options ?? {};
  const options = props.upload ? withoutPersist : props.options;
  const own = (useS3Upload as (options: UseS3UploadOptions) => UseS3Upload)({ ...options, route: props.route } as UseS3UploadOptions);
  useOutcomes(props.upload ? undefined : (own as UseS3Upload<RouteResultData<R, N>>), props);
  return props.upload ?? (own as UseS3Upload<RouteResultData<R, N>>);
}

/** The outcome of a failed file whose `error` is unset. */
const NO_ERROR_DETAIL = {};

/**
 * Calls `onUploadComplete` and `onError` once per file that ended so, and again when a retry ends it anew. A file's
 * end is told by its outcome, the `result` or the `error` object, not by a render between its two ends: a small
 * file retried within one paced render goes from `error` to `done` in the next list the page renders.
 */
export function useOutcomes<S>(upload: Pick<UseS3Upload<S>, 'files'> | undefined, callbacks: { onUploadComplete?: (result: UploadResult<S>, file: TrackedFile<S>) => void; onError?: (error: unknown, file: TrackedFile<S>) => void }) {
  /** The outcome last reported for each file. */
  const reported = useRef(new Map<string, unknown>());
  const latest = useRef(callbacks);
  latest.current = callbacks;
  const files = upload?.files;
  useEffect(() => {
    if (!files) return;
    for (const file of files) {
      const outcome = file.status === 'done' ? file.result : file.status === 'error' ? (file.error ?? NO_ERROR_DETAIL) : undefined;
      if (outcome === undefined) {
        reported.current.delete(file.id);
        continue;
      }
      if (reported.current.get(file.id) === outcome) continue;
      reported.current.set(file.id, outcome);
      if (file.status === 'done') latest.current.onUploadComplete?.(file.result!, file);
      else latest.current.onError?.(file.error, file);
    }
  }, [files]);
}

/** What a drop zone or button takes from its props: the rules, the route and what to do with the files. */
export interface TakingProps<R extends AnyRoutes, N extends RouteName<R>> extends UploadSourceProps<R, N>, FileRules {
  disabled?: boolean;
  onDrop?: (accepted: DroppedFile[], rejected: FileRejection[]) => void;
}

/**
 * `useDropZone`'s options for a component, and the files last turned away: the rules given, over the
 * `route`'s (read once from the endpoint's GET, however many drop zones the component has); files
 * accepted go to `upload`, all to the app's `onDrop`.
 */
export function useTaking<R extends AnyRoutes, N extends RouteName<R>>(
  props: TakingProps<R, N>,
  upload: UseS3Upload<RouteResultData<R, N>>,
): { options: DropZoneOptions; rejected: FileRejection[] } {
  const [rejected, setRejected] = useState<FileRejection[]>([]);
  const { endpoint } = props.options ?? {};
  // A function endpoint has no GET to read a route's rules from: the default one is asked.
  const routeRules = useRouteRules(props.route, typeof endpoint === 'string' ? endpoint : undefined);
  const given = Object.fromEntries(
    Object.entries({ accept: props.accept, maxSize: props.maxSize, minSize: props.minSize, maxFiles: props.maxFiles }).filter(([, value]) => value !== undefined),
  );
  const options: DropZoneOptions = {
    ...routeRules,
    ...given,
    disabled: props.disabled,
    onDrop: (accepted, refused) => {
      if (accepted.length > 0) upload.addFiles(accepted);
      setRejected(refused);
      props.onDrop?.(accepted, refused);
    },
  };
  return { options, rejected };
}
