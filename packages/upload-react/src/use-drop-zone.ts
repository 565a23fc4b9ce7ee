'use client';
import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type ChangeEvent,
  type ClipboardEvent as ReactClipboardEvent,
  type DragEvent,
  type HTMLAttributes,
  type InputHTMLAttributes,
  type KeyboardEvent,
  type RefObject,
} from 'react';
import {
  filesOfTransfer,
  pickedFile,
  sortFiles,
  type DroppedFile,
  type DropZoneOptions as DropZoneCoreOptions,
  type FileRules,
} from '@upbeam/upload-client/drop-zone';
import { useRouteRules } from './use-route-rules';

export type { DroppedFile } from '@upbeam/upload-client/drop-zone';

/**
 * Options of {@link useDropZone}: those of the shared drop zone (`@upbeam/upload-client/drop-zone`: the
 * rules checked before any request, and what to do with the files), and an upload route to take the rules from.
 */
export interface DropZoneOptions extends DropZoneCoreOptions {
  /**
   * An upload route of the endpoint: its public rules (types, `maxFileSize`, `maxFiles`), read once from the
   * endpoint's GET, become `accept`, `maxSize` and `maxFiles`; a rule given here wins. Until they arrive,
   * only the rules given here apply (the server still refuses what breaks its rules).
   */
  route?: string;
  /** The endpoint whose GET gives `route`'s rules. @default '/api/s3-upload' */
  endpoint?: string;
}

/** `rules` with each rule `given` sets replaced by it. */
function withGiven(rules: FileRules | undefined, given: DropZoneOptions): DropZoneOptions {
  if (rules === undefined) return given;
  const set = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
  return { ...rules, ...set } as DropZoneOptions;
}

/** The props {@link DropZone.getRootProps} adds to the element that takes drops. */
export type DropZoneRootProps = HTMLAttributes<HTMLElement>;

/** The props {@link DropZone.getInputProps} gives the hidden `<input type="file">`: its attributes and its `ref`. */
export type DropZoneInputProps = InputHTMLAttributes<HTMLInputElement> & { ref: RefObject<HTMLInputElement | null> };

/** What {@link useDropZone} returns (react-dropzone's names). */
export interface DropZone {
  /**
   * Props for the element that takes drops and pastes: drag and drop handlers, `onPaste`, and, to be
   * operable by keyboard, `role="button"`, `tabIndex={0}` and Enter or Space to open the file dialog, as a
   * click does. Your own handlers in `props` run first. No style is set: style it from `isDragActive`.
   */
  getRootProps: (props?: DropZoneRootProps) => DropZoneRootProps;
  /** Props for the `<input type="file">` rendered inside the root (hidden with an inline `display: none`). */
  getInputProps: (props?: InputHTMLAttributes<HTMLInputElement>) => DropZoneInputProps;
  /** Whether files are being dragged over the root. */
  isDragActive: boolean;
  /** Opens the file dialog. */
  open: () => void;
}

/** Whether a drag carries files (not text or a link dragged from the page). */
const carriesFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');

/**
 * A headless drop zone: drag and drop (folders included, their relative paths kept), paste, and a file
 * dialog, with `accept` and size rules checked before any request. Follows react-dropzone's conventions
 * (`getRootProps()`, `getInputProps()`, `isDragActive`, `open`); renders nothing and imposes no style.
 *
 * @example
 * const { addFiles } = useS3Upload();
 * const { getRootProps, getInputProps, isDragActive } = useDropZone({
 *   accept: 'image/*', maxSize: 10 * 1024 * 1024, onDrop: (accepted) => addFiles(accepted),
 * });
 * return (
 *   <div {...getRootProps({ className: isDragActive ? 'zone active' : 'zone' })}>
 *     <input {...getInputProps()} />
 *     Drop files here, paste them, or press to choose
 *   </div>
 * );
 */
export function useDropZone(given: DropZoneOptions): DropZone {
  const options = withGiven(useRouteRules(given.route, given.endpoint), given);
  const { multiple = true, directory = false, paste = 'root', disabled = false, accept } = options;
  const input = useRef<HTMLInputElement | null>(null);
  // dragenter and dragleave fire for every child crossed: the drag is over the root while the count is above 0.
  const depth = useRef(0);
  const [isDragActive, setDragActive] = useState(false);
  const latest = useRef(options);
  latest.current = options;

  const take = useCallback((files: DroppedFile[]) => {
    const { accepted, rejected } = sortFiles(files, latest.current);
    if (accepted.length > 0 || rejected.length > 0) latest.current.onDrop(accepted, rejected);
  }, []);

  const fromTransfer = useCallback(
    (transfer: DataTransfer | null) => {
      if (transfer) void filesOfTransfer(transfer).then(take);
    },
    [take],
  );

  const open = useCallback(() => {
    if (!latest.current.disabled) input.current?.click();
  }, []);

  useEffect(() => {
    if (paste !== 'document' || disabled) return;
    const onPaste = (event: ClipboardEvent) => fromTransfer(event.clipboardData);
    document.addEventListener('paste', onPaste);
    return () => document.removeEventListener('paste', onPaste);
  }, [paste, disabled, fromTransfer]);

  const getRootProps = (props: DropZoneRootProps = {}): DropZoneRootProps => ({
    role: 'button',
    tabIndex: disabled ? -1 : 0,
    'aria-disabled': disabled || undefined,
    ...props,
    onClick: (event) => {
      props.onClick?.(event);
      if (!event.defaultPrevented) open();
    },
    onKeyDown: (event: KeyboardEvent<HTMLElement>) => {
      props.onKeyDown?.(event);
      if (event.defaultPrevented || event.target !== event.currentTarget) return;
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        open();
      }
    },
    onDragEnter: (event: DragEvent<HTMLElement>) => {
      props.onDragEnter?.(event);
      if (disabled || !carriesFiles(event)) return;
      event.preventDefault();
      depth.current += 1;
      setDragActive(true);
    },
    onDragOver: (event: DragEvent<HTMLElement>) => {
      props.onDragOver?.(event);
      if (disabled || !carriesFiles(event)) return;
      // Without preventDefault the browser refuses the drop (and opens the file in the tab instead).
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave: (event: DragEvent<HTMLElement>) => {
      props.onDragLeave?.(event);
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragActive(false);
    },
    onDrop: (event: DragEvent<HTMLElement>) => {
      props.onDrop?.(event);
      event.preventDefault();
      depth.current = 0;
      setDragActive(false);
      if (!disabled) fromTransfer(event.dataTransfer);
    },
    onPaste: (event: ReactClipboardEvent<HTMLElement>) => {
      props.onPaste?.(event);
      if (paste !== 'root' || disabled || event.clipboardData.files.length === 0) return;
      event.preventDefault();
      fromTransfer(event.clipboardData);
    },
  });

  const getInputProps = (props: InputHTMLAttributes<HTMLInputElement> = {}): DropZoneInputProps => ({
    ...props,
    ...(directory ? ({ webkitdirectory: '' } as InputHTMLAttributes<HTMLInputElement>) : {}),
    ref: input,
    type: 'file',
    multiple,
    ...(accept === undefined ? {} : { accept }),
    disabled,
    tabIndex: -1,
    style: { display: 'none', ...props.style },
    // The dialog's click bubbles to the root, whose onClick would open the dialog again.
    onClick: (event) => {
      props.onClick?.(event);
      event.stopPropagation();
    },
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      props.onChange?.(event);
      const files = Array.from(event.target.files ?? [], pickedFile);
      // Cleared so that picking the same file again fires onChange again.
      event.target.value = '';
      take(files);
    },
  });

  return { getRootProps, getInputProps, isDragActive, open };
}
