import { DropZoneController, type DropZoneOptions } from '@upbeam/upload-client/drop-zone';
import { createAttachmentKey } from 'svelte/attachments';
import { createSubscriber } from 'svelte/reactivity';

/**
 * Attributes, event handlers and an attachment (it listens for pastes on the document while mounted) for
 * the element that takes drops: spread it, `<div {...zone.rootProps}>`. To be operable by keyboard:
 * `role="button"`, `tabindex` 0 and Enter or Space to open the file dialog, as a click does.
 */
export interface DropZoneRootProps {
  role: 'button';
  tabindex: number;
  'aria-disabled': true | undefined;
  onclick: (event: MouseEvent) => void;
  onkeydown: (event: KeyboardEvent) => void;
  ondragenter: (event: DragEvent) => void;
  ondragover: (event: DragEvent) => void;
  ondragleave: (event: DragEvent) => void;
  ondrop: (event: DragEvent) => void;
  onpaste: (event: ClipboardEvent) => void;
  [attachment: symbol]: (element: HTMLElement) => () => void;
}

/** Attributes, event handlers and an attachment for the hidden `<input type="file">`: `<input {...zone.inputProps} />`. */
export interface DropZoneInputProps {
  type: 'file';
  multiple: boolean;
  accept: string | undefined;
  disabled: boolean;
  /** Picks a folder (`directory`); set as the input's property. */
  webkitdirectory: boolean;
  tabindex: -1;
  style: 'display: none';
  onclick: (event: MouseEvent) => void;
  onchange: (event: Event) => void;
  [attachment: symbol]: (element: HTMLInputElement) => () => void;
}

/** What {@link createDropZone} returns; read its properties through the object, where they stay reactive. */
export interface DropZone {
  /** Spread on the element that takes drops and pastes. No style is set: style it from `isDragActive`. */
  readonly rootProps: DropZoneRootProps;
  /** Spread on an `<input>` inside the root, which stays hidden. */
  readonly inputProps: DropZoneInputProps;
  /** Whether files are being dragged over the root (reactive). */
  readonly isDragActive: boolean;
  /** Opens the file dialog (unless `disabled`). */
  open: () => void;
}

/**
 * A headless drop zone: drag and drop (folders included, their relative paths kept), paste, and a file
 * dialog, with `accept` and size rules checked before any request. Renders nothing and imposes no style.
 * The Svelte 5 binding of `DropZoneController` (`@upbeam/upload-client/drop-zone`), which React's and Vue's share.
 *
 * @param options - The options, or a function that returns them (read at each event and render: it may
 *   read `$state`, e.g. `() => ({ disabled, onDrop })`).
 *
 * @example
 * <script lang="ts">
 *   import { createDropZone, createS3Upload } from '@upbeam/upload-svelte';
 *   const upload = createS3Upload();
 *   const zone = createDropZone({ accept: 'image/*', onDrop: (accepted) => upload.addFiles(accepted) });
 * </script>
 *
 * <div {...zone.rootProps} class:active={zone.isDragActive}>
 *   <input {...zone.inputProps} />
 *   Drop files here, paste them, or press to choose
 * </div>
 */
export function createDropZone(options: DropZoneOptions | (() => DropZoneOptions)): DropZone {
  const zone = new DropZoneController(options);
  const subscribe = createSubscriber((update) => zone.subscribe(update));
  // Made once: Svelte runs a spread's attachment again when its function changes.
  const rootKey = createAttachmentKey();
  const inputKey = createAttachmentKey();
  const attachRoot = (root: HTMLElement) => zone.listenForDocumentPaste(root.ownerDocument);
  const attachInput = (input: HTMLInputElement) => {
    zone.setInput(input);
    return () => zone.setInput(null);
  };
  return {
    get rootProps(): DropZoneRootProps {
      const disabled = zone.options.disabled ?? false;
      return {
        role: 'button',
        tabindex: disabled ? -1 : 0,
        'aria-disabled': disabled || undefined,
        onclick: zone.click,
        onkeydown: zone.keyDown,
        ondragenter: zone.dragEnter,
        ondragover: zone.dragOver,
        ondragleave: zone.dragLeave,
        ondrop: zone.drop,
        onpaste: zone.paste,
        [rootKey]: attachRoot,
      };
    },
    get inputProps(): DropZoneInputProps {
      const { multiple = true, directory = false, accept, disabled = false } = zone.options;
      return {
        type: 'file',
        multiple,
        accept,
        disabled,
        webkitdirectory: directory,
        tabindex: -1,
        style: 'display: none',
        onclick: zone.inputClick,
        onchange: zone.inputChange,
        [inputKey]: attachInput,
      };
    },
    get isDragActive() {
      subscribe();
      return zone.isDragActive();
    },
    open: zone.open,
  };
}
