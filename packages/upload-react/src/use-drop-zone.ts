'use client';
import {
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type HTMLAttributes,
  type InputHTMLAttributes,
  type RefObject,
  type SyntheticEvent,
} from 'react';
import { DropZoneController, type DropZoneOptions as DropZoneCoreOptions, type FileRules } from '@upbeam/upload-client/drop-zone';
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
   * only the rules given here apply (the server still refuses what breaks its rules). The size judged here is
   * the picked file's: where the uploads have a `transform` (a resize), give `maxSize: Infinity` so that the
   * route's `maxFileSize` judges the file sent, at the server (the components do so by themselves).
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

/**
 * `theirs` (the app's handler in `props`), then the controller's: React's event carries the DOM fields the
 * controller reads (`defaultPrevented`, `target`, `currentTarget`, `key`, `dataTransfer`, `clipboardData`,
 * `preventDefault`, `stopPropagation`), and its `preventDefault` sets its `defaultPrevented`.
 */
function after<E extends SyntheticEvent>(theirs: ((event: E) => void) | undefined, ours: (event: never) => void): (event: E) => void {
  return (event) => {
    theirs?.(event);
    ours(event as never);
  };
}

/** A ref object that also gives the element to the controller, which opens the dialog with it. */
function inputRef(zone: DropZoneController): RefObject<HTMLInputElement | null> {
  let current: HTMLInputElement | null = null;
  return {
    get current() {
      return current;
    },
    set current(input) {
      current = input;
      zone.setInput(input);
    },
  };
}

const notDragging = () => false;

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
  const { multiple = true, directory = false, disabled = false, accept } = options;
  const latest = useRef(options);
  latest.current = options;
  const [zone] = useState(() => new DropZoneController(() => latest.current));
  const [input] = useState(() => inputRef(zone));
  const isDragActive = useSyncExternalStore(zone.subscribe, zone.isDragActive, notDragging);
  useEffect(() => zone.listenForDocumentPaste(document), [zone]);

  const getRootProps = (props: DropZoneRootProps = {}): DropZoneRootProps => ({
    role: 'button',
    tabIndex: disabled ? -1 : 0,
    'aria-disabled': disabled || undefined,
    ...props,
    onClick: after(props.onClick, zone.click),
    onKeyDown: after(props.onKeyDown, zone.keyDown),
    onDragEnter: after(props.onDragEnter, zone.dragEnter),
    onDragOver: after(props.onDragOver, zone.dragOver),
    onDragLeave: after(props.onDragLeave, zone.dragLeave),
    onDrop: after(props.onDrop, zone.drop),
    onPaste: after(props.onPaste, zone.paste),
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
    onClick: after(props.onClick, zone.inputClick),
    onChange: after(props.onChange, zone.inputChange),
  });

  return { getRootProps, getInputProps, isDragActive, open: zone.open };
}
