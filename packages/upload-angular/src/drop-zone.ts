import { afterNextRender, computed, DestroyRef, Directive, ElementRef, inject, input, signal, type Signal } from '@angular/core';
import { DropZoneController, type DropZoneOptions } from '@upbeam/upload-client/drop-zone';

/** Each drop zone's controller, for the input inside it (not a public member of the directive). */
const controllers = new WeakMap<UpbeamDropZone, DropZoneController>();

/**
 * A headless drop zone on any element: drag and drop (folders included, their relative paths kept), paste,
 * and a file dialog, with `accept` and size rules checked before any request. The Angular binding of
 * `DropZoneController` (`@upbeam/upload-client/drop-zone`), which React's, Vue's and Svelte's share.
 *
 * On its element it sets `role="button"` and `tabindex` 0 (-1 and `aria-disabled` when `disabled`), so that
 * Enter or Space opens the file dialog as a click does, and listens to drags, drops and pastes. It sets no
 * style: style it from `isDragActive()` (a signal). Put an `<input upbeamDropZoneInput />` inside it, which
 * stays hidden. With `paste: 'document'` it takes pastes anywhere on the page while it is rendered.
 *
 * Its input, `[upbeamDropZone]`, is the options (`DropZoneOptions`: `onDrop`, `accept`, `maxSize`,
 * `multiple`, `directory`, `paste`, `disabled`), read at each event.
 *
 * @example
 * ```ts
 * import { Component } from '@angular/core';
 * import { injectS3Upload, UpbeamDropZone, UpbeamDropZoneInput } from '@upbeam/upload-angular';
 *
 * @Component({
 *   selector: 'app-drop',
 *   imports: [UpbeamDropZone, UpbeamDropZoneInput],
 *   template: `
 *     <div [upbeamDropZone]="{ accept: 'image/*', onDrop: take }" #zone="upbeamDropZone" [class.active]="zone.isDragActive()">
 *       <input upbeamDropZoneInput />
 *       Drop files here, paste them, or press to choose
 *     </div>
 *   `,
 * })
 * export class DropComponent {
 *   readonly upload = injectS3Upload();
 *   readonly take = (accepted: File[]) => this.upload.addFiles(accepted);
 * }
 * ```
 */
@Directive({
  selector: '[upbeamDropZone]',
  exportAs: 'upbeamDropZone',
  host: {
    role: 'button',
    '[attr.tabindex]': 'disabled() ? -1 : 0',
    '[attr.aria-disabled]': 'disabled() || null',
    '(click)': 'handle("click", $event)',
    '(keydown)': 'handle("keyDown", $event)',
    '(dragenter)': 'handle("dragEnter", $event)',
    '(dragover)': 'handle("dragOver", $event)',
    '(dragleave)': 'handle("dragLeave", $event)',
    '(drop)': 'handle("drop", $event)',
    '(paste)': 'handle("paste", $event)',
  },
})
export class UpbeamDropZone {
  /** The options: the rules, `onDrop`, and how files come in. */
  readonly options = input.required<DropZoneOptions>({ alias: 'upbeamDropZone' });
  readonly #controller = new DropZoneController(() => this.options());
  readonly #active = signal(false);
  /** Whether files are being dragged over the element (a signal). */
  readonly isDragActive: Signal<boolean> = this.#active.asReadonly();
  /** @internal The `disabled` option, for the host bindings. */
  protected readonly disabled = computed(() => this.options().disabled ?? false);

  constructor() {
    controllers.set(this, this.#controller);
    const stopActive = this.#controller.subscribe(() => this.#active.set(this.#controller.isDragActive()));
    const host = inject<ElementRef<HTMLElement>>(ElementRef).nativeElement;
    let stopPaste: (() => void) | undefined;
    // In the browser only (not during server rendering): the document's pastes, for `paste: 'document'`.
    afterNextRender(() => {
      stopPaste = this.#controller.listenForDocumentPaste(host.ownerDocument);
    });
    inject(DestroyRef).onDestroy(() => {
      stopActive();
      stopPaste?.();
    });
  }

  /** Opens the file dialog (unless `disabled`). */
  open(): void {
    this.#controller.open();
  }

  /** @internal Passes a host event to the controller. */
  protected handle(name: 'click' | 'keyDown' | 'dragEnter' | 'dragOver' | 'dragLeave' | 'drop' | 'paste', event: Event): void {
    (this.#controller[name] as (event: Event) => void)(event);
  }
}

/**
 * The hidden `<input type="file">` of the {@link UpbeamDropZone} it sits in: `<input upbeamDropZoneInput />`.
 * It sets `type`, `multiple`, `accept`, `disabled` and `webkitdirectory` from the zone's options, hides the
 * input, keeps it out of the tab order, and passes picked files to the zone.
 *
 * @example
 * ```html
 * <div [upbeamDropZone]="options"><input upbeamDropZoneInput /> Drop or press to choose</div>
 * ```
 */
@Directive({
  selector: 'input[upbeamDropZoneInput]',
  host: {
    type: 'file',
    tabindex: '-1',
    style: 'display: none',
    '[multiple]': 'zone.options().multiple ?? true',
    '[attr.accept]': 'zone.options().accept ?? null',
    '[disabled]': 'zone.options().disabled ?? false',
    '[attr.webkitdirectory]': 'zone.options().directory ? "" : null',
    '(click)': 'controller.inputClick($event)',
    '(change)': 'controller.inputChange($event)',
  },
})
export class UpbeamDropZoneInput {
  /** @internal The drop zone around the input. */
  protected readonly zone = inject(UpbeamDropZone);
  /** @internal Its controller. */
  protected readonly controller = controllers.get(this.zone)!;

  constructor() {
    const element = inject<ElementRef<HTMLInputElement>>(ElementRef).nativeElement;
    this.controller.setInput(element);
    inject(DestroyRef).onDestroy(() => this.controller.setInput(null));
  }
}
