'use client';
import type { RouteResultData, TrackedFile } from '@upbeam/upload-client';
import type { AnyRoutes, RouteName, UploadResult } from '@upbeam/upload-protocol';
import { useEffect, useRef, useState, type ComponentType } from 'react';
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

/** A component's props as its view reads them: with the uploads it shows, given or its own. */
export type WithUpload<P extends { upload?: unknown }> = P & { upload: NonNullable<P['upload']> };

/**
 * Renders `view` with the uploads it shows: `props.upload` as it is (the component makes no tracker of its own,
 * and so keeps no queue: with `persist` one of its own would restore the kept files and upload them unseen,
 * beside the owner's tracker, which would show them as uploading in another tab), or its own `useS3Upload`
 * (from `route` and `options`), whose files' ends it tells to `onUploadComplete` and `onError`.
 */
export function UploadSource<P extends { upload?: unknown }>({ props, view: View }: { props: P; view: ComponentType<WithUpload<P>> }) {
  if (!props.upload) return <OwnUploads props={props} view={View} />;
  const viewProps = props as WithUpload<P>;
  return <View {...viewProps} />;
}

/** A component's own uploads: its `useS3Upload`, the callbacks told of each file's end. */
function OwnUploads<P extends { upload?: unknown }>({ props, view: View }: { props: P; view: ComponentType<WithUpload<P>> }) {
  const source = props as UploadSourceProps;
  const upload = (useS3Upload as (options: UseS3UploadOptions) => UseS3Upload)({ ...source.options, route: source.route } as UseS3UploadOptions);
  const latest = useRef(source);
  latest.current = source;
  // The tracker tells each end once, a retried file's again, whatever the renders between them.
  const { tracker } = upload;
  useEffect(
    () =>
      tracker.onFileEnd((file) => {
        if (file.status === 'done') latest.current.onUploadComplete?.(file.result!, file);
        else if (file.status === 'error') latest.current.onError?.(file.error, file);
      }),
    [tracker],
  );
  const viewProps = { ...props, upload } as WithUpload<P>;
  return <View {...viewProps} />;
}

/** What a drop zone or button takes from its props: the rules, the route and what to do with the files. */
export interface TakingProps<R extends AnyRoutes, N extends RouteName<R>> extends UploadSourceProps<R, N>, FileRules {
  disabled?: boolean;
  onDrop?: (accepted: DroppedFile[], rejected: FileRejection[]) => void;
}

/**
 * `useDropZone`'s options for a component, and the files last turned away: the rules given, over the
 * `route`'s (read once from the endpoint's GET, however many drop zones the component has; its `maxFileSize`
 * left to the server when `options.transform` is set); files accepted go to `upload`, all to the app's `onDrop`.
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
    // With a transform, the route's maxFileSize judges the file sent (a 30 MB photo resized to 2 MB), which only
    // the server sees: the picked file is not refused for its size here.
    ...(props.options?.transform ? { ...routeRules, maxSize: undefined } : routeRules),
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
