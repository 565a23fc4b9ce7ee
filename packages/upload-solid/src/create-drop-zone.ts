import { DropZoneController, type DropZoneOptions as DropZoneCoreOptions, type FileRules } from '@upbeam/upload-client/drop-zone';
import { createMemo, createSignal, getOwner, onCleanup, onMount } from 'solid-js';
import { createRouteFileRules } from './route-file-rules';

/**
 * Options of {@link createDropZone}: those of the shared drop zone (`@upbeam/upload-client/drop-zone`: the
 * rules checked before any request, and what to do with the files), and an upload route to take the rules from.
 */
export interface DropZoneOptions extends DropZoneCoreOptions {
  /**
   * An upload route of the endpoint: its public rules (types, `maxFileSize`, `maxFiles`), read from the
   * endpoint's GET once mounted, become `accept`, `maxSize` and `maxFiles`; a rule given here wins. Until they
   * arrive, only the rules given here apply (the server still refuses what breaks its rules). The size judged
   * here is the picked file's: where the uploads have a `transform` (a resize), give `maxSize: Infinity` so that
   * the route's `maxFileSize` judges the file sent, at the server.
   */
  route?: string;
  /** The endpoint whose GET gives `route`'s rules. @default '/api/s3-upload' */
  endpoint?: string;
}

/**
 * Attributes and event handlers for the element that takes drops: spread them, `<div {...zone.rootProps}>`
 * (the option-dependent ones are getters, which Solid's spread keeps reactive). To be operable by keyboard:
 * `role="button"`, `tabindex` 0 and Enter or Space to open the file dialog, as a click does.
 */
export interface DropZoneRootProps {
  readonly role: 'button';
  /** 0, or -1 while `disabled`. */
  readonly tabindex: number;
  readonly 'aria-disabled': true | undefined;
  readonly onClick: (event: MouseEvent) => void;
  readonly onKeyDown: (event: KeyboardEvent) => void;
  readonly onDragEnter: (event: DragEvent) => void;
  readonly onDragOver: (event: DragEvent) => void;
  readonly onDragLeave: (event: DragEvent) => void;
  readonly onDrop: (event: DragEvent) => void;
  readonly onPaste: (event: ClipboardEvent) => void;
}

/** Attributes, event handlers and the `ref` of the hidden `<input type="file">`: `<input {...zone.inputProps} />`. */
export interface DropZoneInputProps {
  /** Hands the input to the zone, which clicks it to open the file dialog (and lets go of it when the component is disposed). */
  readonly ref: (element: HTMLInputElement) => void;
  readonly type: 'file';
  readonly multiple: boolean;
  readonly accept: string | undefined;
  readonly disabled: boolean;
  /** `''` (present) to pick a folder (`directory`), else absent. */
  readonly webkitdirectory: '' | undefined;
  readonly tabindex: -1;
  readonly style: 'display: none';
  readonly onClick: (event: MouseEvent) => void;
  readonly onChange: (event: Event) => void;
}

/** What {@link createDropZone} returns. */
export interface DropZone {
  /** Spread on the element that takes drops and pastes. No style is set: style it from `isDragActive`. */
  readonly rootProps: DropZoneRootProps;
  /** Spread on an `<input>` inside the root, which stays hidden. */
  readonly inputProps: DropZoneInputProps;
  /** Whether files are being dragged over the root (a signal). */
  readonly isDragActive: () => boolean;
  /** Opens the file dialog (unless `disabled`). */
  readonly open: () => void;
}

/** `rules` with each rule `given` sets replaced by it. */
function withGiven(rules: FileRules | undefined, given: DropZoneOptions): DropZoneOptions {
  if (rules === undefined) return given;
  return { ...rules, ...Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) } as DropZoneOptions;
}

/**
 * A headless drop zone: drag and drop (folders included, their relative paths kept), paste, and a file
 * dialog, with `accept` and size rules checked before any request. Renders nothing and imposes no style.
 * The Solid binding of `DropZoneController` (`@upbeam/upload-client/drop-zone`), which React's, Vue's and
 * Svelte's share. Call it in a component: once mounted it listens for pastes on the document (taken with
 * `paste: 'document'`) and fetches `route`'s rules; it stops when the component is disposed.
 *
 * @param options - Plain options, or an accessor of them (read at each event and render: it may read
 *   signals, e.g. `() => ({ disabled: busy(), onDrop })`).
 *
 * @example
 * import { createDropZone, createS3Upload } from '@upbeam/upload-solid';
 *
 * function Zone() {
 *   const upload = createS3Upload();
 *   const zone = createDropZone({ accept: 'image/*', onDrop: (accepted) => upload.addFiles(accepted) });
 *   return (
 *     <div {...zone.rootProps} classList={{ active: zone.isDragActive() }}>
 *       <input {...zone.inputProps} />
 *       Drop files here, paste them, or press to choose
 *     </div>
 *   );
 * }
 */
export function createDropZone(options: DropZoneOptions | (() => DropZoneOptions)): DropZone {
  const read = typeof options === 'function' ? options : () => options;
  const rules = createRouteFileRules(createMemo(() => ({ route: read().route, endpoint: read().endpoint }), undefined, {
    equals: (a, b) => a.route === b.route && a.endpoint === b.endpoint,
  }));
  const current = () => withGiven(rules(), read());
  const zone = new DropZoneController(current);
  const [isDragActive, setDragActive] = createSignal(false);
  const stop = zone.subscribe(() => setDragActive(zone.isDragActive()));
  if (getOwner()) onCleanup(stop);
  onMount(() => onCleanup(zone.listenForDocumentPaste(document)));
  const rootProps: DropZoneRootProps = {
    role: 'button',
    get tabindex() {
      return current().disabled ? -1 : 0;
    },
    get 'aria-disabled'() {
      return current().disabled || undefined;
    },
    onClick: zone.click,
    onKeyDown: zone.keyDown,
    onDragEnter: zone.dragEnter,
    onDragOver: zone.dragOver,
    onDragLeave: zone.dragLeave,
    onDrop: zone.drop,
    onPaste: zone.paste,
  };
  const inputProps: DropZoneInputProps = {
    ref: (input) => {
      zone.setInput(input);
      if (getOwner()) onCleanup(() => zone.setInput(null));
    },
    type: 'file',
    get multiple() {
      return current().multiple ?? true;
    },
    get accept() {
      return current().accept;
    },
    get disabled() {
      return current().disabled ?? false;
    },
    get webkitdirectory() {
      return current().directory ? ('' as const) : undefined;
    },
    tabindex: -1,
    style: 'display: none',
    onClick: zone.inputClick,
    onChange: zone.inputChange,
  };
  return { rootProps, inputProps, isDragActive, open: zone.open };
}
