import type { DropZoneOptions } from './drop-zone-options';
import { pickedFile, walkTransfer, type DroppedFile } from './folder-entries';
import { fileSorter, sortFiles } from './sort-files';

/** Whether a drag carries files (not text or a link dragged from the page). */
const carriesFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');

/**
 * The framework-free state and DOM event handlers of a drop zone, for a binding to wire to its elements:
 * the root takes drags, drops, pastes, clicks and Enter or Space; a hidden `<input type="file">` opens the
 * file dialog. Handlers take the browser's own events (`DragEvent`, `ClipboardEvent`, `KeyboardEvent`).
 * `isDragActive()` changes are told to `subscribe`rs; `onDrop` of the options gets the sorted files.
 *
 * @example
 * const zone = new DropZoneController({ accept: 'image/*', onDrop: (accepted) => tracker.add(accepted) });
 * root.addEventListener('dragenter', zone.dragEnter);
 * // ...dragover, dragleave, drop, paste, click, keydown likewise; zone.setInput(input) and its change, click.
 */
export class DropZoneController {
  #options: DropZoneOptions | (() => DropZoneOptions);
  #input: HTMLInputElement | null = null;
  /** dragenter and dragleave fire for every child crossed: the drag is over the root while this is above 0. */
  #depth = 0;
  #active = false;
  readonly #listeners = new Set<() => void>();

  /**
   * @param options - The options, or a function that returns them, called at each event (a binding's
   *   reactive options: a Vue getter, a Svelte `$state`).
   */
  constructor(options: DropZoneOptions | (() => DropZoneOptions)) {
    this.#options = options;
  }

  /** Replaces the options (or the function that returns them); handlers read them when an event comes. */
  setOptions(options: DropZoneOptions | (() => DropZoneOptions)): void {
    this.#options = options;
  }

  /** The options now. */
  get options(): DropZoneOptions {
    return typeof this.#options === 'function' ? this.#options() : this.#options;
  }

  /** Calls `listener` after each change of {@link DropZoneController.isDragActive}; returns the function that stops it. */
  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** Whether files are being dragged over the root. */
  isDragActive = (): boolean => this.#active;

  /** The `<input type="file">` that {@link DropZoneController.open} clicks (`null` when it leaves the page). */
  setInput = (input: HTMLInputElement | null): void => {
    this.#input = input;
  };

  /** Opens the file dialog, unless `disabled`. */
  open = (): void => {
    if (!this.options.disabled) this.#input?.click();
  };

  /** Sorts the files by the rules and gives them to `onDrop` (when there is any). */
  take = (files: readonly DroppedFile[]): void => {
    const { accepted, rejected } = sortFiles(files, this.options);
    if (accepted.length > 0 || rejected.length > 0) this.options.onDrop(accepted, rejected);
  };

  /** The root's `click`: opens the dialog unless a handler before prevented it. */
  click = (event: Event): void => {
    if (!event.defaultPrevented) this.open();
  };

  /** The root's `keydown`: Enter or Space on the root itself opens the dialog, as a click does. */
  keyDown = (event: KeyboardEvent): void => {
    if (event.defaultPrevented || event.target !== event.currentTarget) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      this.open();
    }
  };

  /** The root's `dragenter`: a drag of files makes it drag-active (children crossed counted). */
  dragEnter = (event: DragEvent): void => {
    if (this.options.disabled || !carriesFiles(event)) return;
    event.preventDefault();
    this.#depth += 1;
    this.#setActive(true);
  };

  /** The root's `dragover`: lets the browser drop files here (a copy). */
  dragOver = (event: DragEvent): void => {
    if (this.options.disabled || !carriesFiles(event)) return;
    // Without preventDefault the browser refuses the drop (and opens the file in the tab instead).
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
  };

  /** The root's `dragleave`: no longer drag-active once the drag has left the root and all its children. */
  dragLeave = (): void => {
    this.#depth = Math.max(0, this.#depth - 1);
    if (this.#depth === 0) this.#setActive(false);
  };

  /** The root's `drop`: takes the dropped files (a folder's with their `path`), unless `disabled`. */
  drop = (event: DragEvent): void => {
    event.preventDefault();
    this.#depth = 0;
    this.#setActive(false);
    if (!this.options.disabled) this.#fromTransfer(event.dataTransfer);
  };

  /** The root's `paste`, taken when `paste` is `'root'` (the default) and it carries files. */
  paste = (event: ClipboardEvent): void => {
    const { paste = 'root', disabled } = this.options;
    if (paste !== 'root' || disabled || (event.clipboardData?.files.length ?? 0) === 0) return;
    event.preventDefault();
    this.#fromTransfer(event.clipboardData);
  };

  /**
   * Listens to pastes anywhere in `document`, taken while `paste` is `'document'`; returns the function
   * that stops listening.
   */
  listenForDocumentPaste = (document: Document): (() => void) => {
    const onPaste = (event: ClipboardEvent) => {
      const { paste, disabled } = this.options;
      if (paste === 'document' && !disabled) this.#fromTransfer(event.clipboardData);
    };
    document.addEventListener('paste', onPaste);
    return () => document.removeEventListener('paste', onPaste);
  };

  /** The input's `click`: kept from bubbling to the root, whose click would open the dialog again. */
  inputClick = (event: Event): void => {
    event.stopPropagation();
  };

  /** The input's `change`: takes the picked files (a folder's with their `path`). */
  inputChange = (event: Event): void => {
    const input = event.target as HTMLInputElement;
    const files = Array.from(input.files ?? [], pickedFile);
    // Cleared so that picking the same file again fires change again.
    input.value = '';
    this.take(files);
  };

  /**
   * Takes the files of a drop or paste as the folder walk finds them: `onDrop` is called once per batch (the
   * first within a frame or two of the drop, then about every 100 ms or 1,000 files), `maxFiles` counted over
   * the whole drop.
   */
  #fromTransfer(transfer: DataTransfer | null): void {
    if (!transfer) return;
    const sort = fileSorter(this.options);
    void walkTransfer(transfer, (batch) => {
      const { accepted, rejected } = sort(batch);
      if (accepted.length > 0 || rejected.length > 0) this.options.onDrop(accepted, rejected);
    });
  }

  #setActive(active: boolean): void {
    if (this.#active === active) return;
    this.#active = active;
    for (const listener of this.#listeners) listener();
  }
}
