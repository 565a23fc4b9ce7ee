'use client';
import type { TrackedFile, RouteResultData } from '@upbeam/upload-client';
import type { AnyRoutes, RouteName } from '@upbeam/upload-protocol';
import { useMemo, type ReactNode } from 'react';
import { Announcer } from './announcer';
import { activeFiles, summaryText } from './format';
import { localeTag, withDefaults } from './labels';
import { useLeaveWarning } from './leave-warning';
import { partProps, rootProps } from './parts';
import { UploadDropzone, type UploadDropzoneProps } from './upload-dropzone';
import { UploadList, useStableAppearance } from './upload-list';
import { UploadSource, type WithUpload } from './upload-source';

/** Props of {@link Uploader}: a drop zone's, and what to show under each file. */
export interface UploaderProps<R extends AnyRoutes = AnyRoutes, N extends RouteName<R> = RouteName<R>> extends Omit<UploadDropzoneProps<R, N>, 'children'> {
  /** More to show under a file (a stable function; see `UploadList`'s `details`). */
  details?: (file: TrackedFile<RouteResultData<R, N>>) => ReactNode;
  /** Asks the browser to confirm before the page is left while files upload. @default true */
  warnBeforeLeave?: boolean;
}

/**
 * The whole uploader in one line: a drop zone (files, folders, paste, press to pick), the overall progress
 * with a summary naming the files uploaded, failed, cancelled and queued (speed, time left), `Cancel all`
 * and `Clear list`, progress announced politely by tenths, and the list of files.
 *
 * @example
 * <Uploader<typeof routes, 'photos'> route="photos" onUploadComplete={(result) => console.log(result.serverData)} />
 */
export function Uploader<R extends AnyRoutes = AnyRoutes, N extends RouteName<R> = RouteName<R>>(props: UploaderProps<R, N>) {
  return <UploadSource props={props} view={WholeUploader<R, N>} />;
}

/** The uploader, given the uploads it shows (`props.upload`, or its own). */
function WholeUploader<R extends AnyRoutes, N extends RouteName<R>>(props: WithUpload<UploaderProps<R, N>>) {
  const { upload } = props;
  const appearance = useStableAppearance(props);
  const inner = useMemo(() => ({ ...appearance, className: undefined }), [appearance]);
  const labels = useMemo(() => withDefaults(props.labels, props.locale), [props.labels, props.locale]);
  const { summary, files } = upload;
  const active = activeFiles(summary);
  useLeaveWarning((props.warnBeforeLeave ?? true) && active > 0);
  // The hook's own uploads, shared: the children neither create nor report their own.
  const { onUploadComplete, onError, details, warnBeforeLeave, upload: _shown, ...dropzone } = props;
  return (
    <section {...rootProps('root', appearance)} aria-label={labels.region}>
      <UploadDropzone<R, N> {...dropzone} {...inner} labels={props.labels} upload={upload} />
      {files.length > 0 && (
        <div {...partProps('overall', appearance)}>
          <progress {...partProps('progress', appearance)} max={100} value={summary.progress} aria-label={labels.overallProgress} data-progress={summary.progress} />
          <div className={appearance.unstyled ? undefined : 'upbeam-row-foot'}>
            <span {...partProps('summary', appearance)}>{summaryText(summary, labels, localeTag(props.locale))}</span>
            <span {...partProps('actions', appearance)}>
              <button type="button" {...partProps('button', appearance)} data-action="cancel-all" onClick={() => upload.cancel()} disabled={active === 0}>
                {labels.cancelAll}
              </button>
              <button type="button" {...partProps('button', appearance)} data-action="clear" onClick={upload.resetFiles} disabled={active > 0}>
                {labels.clear}
              </button>
            </span>
          </div>
        </div>
      )}
      <Announcer summary={summary} labels={labels} />
      <UploadList<R, N> upload={upload} {...inner} labels={props.labels} details={details} />
    </section>
  );
}
