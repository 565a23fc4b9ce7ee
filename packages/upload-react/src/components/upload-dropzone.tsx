'use client';
import type { FileRejection, FileRules } from '@upbeam/upload-client/drop-zone';
import type { AnyRoutes, RouteName } from '@upbeam/upload-protocol';
import { useId, type ReactNode } from 'react';
import { useDropZone, type DroppedFile } from '../use-drop-zone';
import { withDefaults } from './labels';
import { partProps, rootProps, type UploadAppearance } from './parts';
import { Rejections } from './rejections';
import { UploadSource, useTaking, type UploadSourceProps, type WithUpload } from './upload-source';

/** Props of {@link UploadDropzone}. */
export interface UploadDropzoneProps<R extends AnyRoutes = AnyRoutes, N extends RouteName<R> = RouteName<R>>
  extends UploadSourceProps<R, N>, UploadAppearance, FileRules {
  /** Also a button that picks a whole folder (a dropped folder is always taken). @default false */
  folders?: boolean;
  /** Where pasted files are taken: the focused drop zone, anywhere on the page, or nowhere. @default 'document' */
  paste?: 'root' | 'document' | false;
  /** Takes no files. @default false */
  disabled?: boolean;
  /** Called after each drop, paste or pick, with the files that pass the rules and those turned away. */
  onDrop?: (accepted: DroppedFile[], rejected: FileRejection[]) => void;
  /** Replaces the drop zone's two lines of text. */
  children?: ReactNode;
}

/**
 * A drop zone that uploads what it takes: files or folders dropped, files pasted, or picked in the file
 * dialog (press it, or Enter or Space when focused). Files breaking the rules (`accept`, `maxSize`,
 * `maxFiles`, or the `route`'s) are listed with their reason, in words, and announced.
 *
 * @example
 * <UploadDropzone<typeof routes, 'avatar'> route="avatar" onUploadComplete={(result) => save(result.serverData)} />
 */
export function UploadDropzone<R extends AnyRoutes = AnyRoutes, N extends RouteName<R> = RouteName<R>>(props: UploadDropzoneProps<R, N>) {
  return <UploadSource props={props} view={Dropzone<R, N>} />;
}

/** The drop zone, given the uploads it adds to (`props.upload`, or its own). */
function Dropzone<R extends AnyRoutes, N extends RouteName<R>>(props: WithUpload<UploadDropzoneProps<R, N>>) {
  const { upload } = props;
  const labels = withDefaults(props.labels, props.locale);
  const { options, rejected } = useTaking(props, upload);
  const zone = useDropZone({ ...options, paste: props.paste ?? 'document' });
  const folder = useDropZone({ ...options, directory: true, paste: false });
  const hintId = useId();
  return (
    <div {...rootProps('root', props)}>
      <div
        {...zone.getRootProps({ ...partProps('dropzone', props), 'aria-describedby': props.children ? undefined : hintId } as object)}
        data-state={zone.isDragActive ? 'dragging' : 'idle'}
      >
        <input {...zone.getInputProps()} data-upbeam="input" />
        {props.children ?? (
          <>
            <strong {...partProps('dropzoneLabel', props)}>{zone.isDragActive ? labels.dropzoneActive : options.maxFiles === 1 ? labels.dropzoneSingle : labels.dropzone}</strong>
            <span {...partProps('dropzoneHint', props)} id={hintId}>
              {labels.dropzoneHint}
            </span>
          </>
        )}
      </div>
      {props.folders && (
        <>
          <input {...folder.getInputProps()} data-upbeam="folder-input" />
          <button type="button" {...partProps('button', props)} onClick={folder.open} disabled={props.disabled}>
            {labels.chooseFolder}
          </button>
        </>
      )}
      <Rejections rejected={rejected} rules={options} labels={labels} appearance={props} />
    </div>
  );
}
