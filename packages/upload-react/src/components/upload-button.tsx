'use client';
import type { FileRejection, FileRules } from '@upbeam/upload-client/drop-zone';
import type { AnyRoutes, RouteName } from '@upbeam/upload-protocol';
import type { CSSProperties } from 'react';
import { useDropZone, type DroppedFile } from '../use-drop-zone';
import { Announcer } from './announcer';
import { activeFiles } from './format';
import { withDefaults } from './labels';
import { partProps, rootProps, type UploadAppearance } from './parts';
import { Rejections } from './rejections';
import { UploadSource, useTaking, type UploadSourceProps, type WithUpload } from './upload-source';

/** Props of {@link UploadButton}. */
export interface UploadButtonProps<R extends AnyRoutes = AnyRoutes, N extends RouteName<R> = RouteName<R>>
  extends UploadSourceProps<R, N>, UploadAppearance, FileRules {
  /** Several files in one pick. @default true */
  multiple?: boolean;
  /** Takes no files. @default false */
  disabled?: boolean;
  /** Called after each pick, with the files that pass the rules and those turned away. */
  onDrop?: (accepted: DroppedFile[], rejected: FileRejection[]) => void;
}

/**
 * A button that opens the file dialog and uploads the files picked; while they upload it reads
 * `Uploading… 45%` and fills from where its text starts (`--upbeam-button-progress`), and a polite live region says
 * the progress by tenths. Files breaking the rules are listed under it with their reason.
 *
 * @example
 * <UploadButton<typeof routes, 'document'> route="document" onUploadComplete={(result) => console.log(result.key)} />
 */
export function UploadButton<R extends AnyRoutes = AnyRoutes, N extends RouteName<R> = RouteName<R>>(props: UploadButtonProps<R, N>) {
  return <UploadSource props={props} view={Button<R, N>} />;
}

/** The button, given the uploads it adds to (`props.upload`, or its own). */
function Button<R extends AnyRoutes, N extends RouteName<R>>(props: WithUpload<UploadButtonProps<R, N>>) {
  const { upload } = props;
  const labels = withDefaults(props.labels, props.locale);
  const { options, rejected } = useTaking(props, upload);
  const picker = useDropZone({ ...options, multiple: props.multiple, paste: false });
  const { summary } = upload;
  const busy = activeFiles(summary) > 0;
  const percent = Math.floor(summary.progress);
  const style = busy ? ({ '--upbeam-button-progress': `${percent}%` } as CSSProperties) : undefined;
  return (
    <div {...rootProps('root', props)}>
      <input {...picker.getInputProps()} data-upbeam="input" />
      <button
        type="button"
        {...partProps('button', props, props.unstyled ? undefined : 'upbeam-button-primary')}
        data-state={busy ? 'uploading' : 'idle'}
        style={style}
        disabled={props.disabled}
        onClick={picker.open}
      >
        {busy ? labels.buttonUploading(percent) : labels.button}
      </button>
      <Announcer summary={summary} labels={labels} />
      <Rejections rejected={rejected} rules={props.multiple === false ? { ...options, maxFiles: 1 } : options} labels={labels} appearance={props} />
    </div>
  );
}
