import { DropZoneController, type DropZoneOptions } from '@upbeam/upload-client/drop-zone';
import { computed, getCurrentScope, onScopeDispose, shallowRef, toValue, type ComputedRef, type MaybeRefOrGetter, type ShallowRef } from 'vue';

/**
 * Attributes and listeners for the element that takes drops (`v-bind="rootProps"`): the drag and drop
 * listeners, `paste`, and, to be operable by keyboard, `role="button"`, `tabindex` 0 and Enter or Space to
 * open the file dialog, as a click does.
 */
export interface DropZoneRootProps {
  role: 'button';
  tabindex: number;
  'aria-disabled': true | undefined;
  onClick: (event: MouseEvent) => void;
  onKeydown: (event: KeyboardEvent) => void;
  onDragenter: (event: DragEvent) => void;
  onDragover: (event: DragEvent) => void;
  onDragleave: (event: DragEvent) => void;
  onDrop: (event: DragEvent) => void;
  onPaste: (event: ClipboardEvent) => void;
}

/** Attributes, listeners and the template ref of the hidden `<input type="file">` (`v-bind="inputProps"`). */
export interface DropZoneInputProps {
  ref: (element: unknown) => void;
  type: 'file';
  multiple: boolean;
  accept: string | undefined;
  disabled: boolean;
  webkitdirectory: '' | undefined;
  tabindex: -1;
  style: { display: 'none' };
  onClick: (event: MouseEvent) => void;
  onChange: (event: Event) => void;
}

/** What {@link useDropZone} returns. */
export interface UseDropZone {
  /** Bind to the element that takes drops and pastes: `<div v-bind="rootProps">`. No style is set: style it from `isDragActive`. */
  rootProps: ComputedRef<DropZoneRootProps>;
  /** Bind to an `<input>` inside the root, which stays hidden: `<input v-bind="inputProps" />`. */
  inputProps: ComputedRef<DropZoneInputProps>;
  /** Whether files are being dragged over the root. */
  isDragActive: Readonly<ShallowRef<boolean>>;
  /** Opens the file dialog (unless `disabled`). */
  open: () => void;
}

/**
 * A headless drop zone: drag and drop (folders included, their relative paths kept), paste, and a file
 * dialog, with `accept` and size rules checked before any request. Renders nothing and imposes no style.
 * The Vue binding of `DropZoneController` (`@upbeam/upload-client/drop-zone`), which React's and Svelte's share.
 *
 * @param options - Plain options, or a ref or getter of them (read at each event).
 *
 * @example
 * <script setup lang="ts">
 * import { useDropZone, useS3Upload } from '@upbeam/upload-vue';
 * const { addFiles } = useS3Upload();
 * const { rootProps, inputProps, isDragActive } = useDropZone({
 *   accept: 'image/*', maxSize: 10 * 1024 * 1024, onDrop: (accepted) => addFiles(accepted),
 * });
 * </script>
 * <template>
 *   <div v-bind="rootProps" :class="{ active: isDragActive }">
 *     <input v-bind="inputProps" />
 *     Drop files here, paste them, or press to choose
 *   </div>
 * </template>
 */
export function useDropZone(options: MaybeRefOrGetter<DropZoneOptions>): UseDropZone {
  const zone = new DropZoneController(() => toValue(options));
  const isDragActive = shallowRef(false);
  const stopActive = zone.subscribe(() => {
    isDragActive.value = zone.isDragActive();
  });
  if (getCurrentScope()) {
    const stopPaste = typeof document === 'undefined' ? undefined : zone.listenForDocumentPaste(document);
    onScopeDispose(() => {
      stopActive();
      stopPaste?.();
    });
  }

  const rootProps = computed((): DropZoneRootProps => {
    const disabled = toValue(options).disabled ?? false;
    return {
      role: 'button',
      tabindex: disabled ? -1 : 0,
      'aria-disabled': disabled || undefined,
      onClick: zone.click,
      onKeydown: zone.keyDown,
      onDragenter: zone.dragEnter,
      onDragover: zone.dragOver,
      onDragleave: zone.dragLeave,
      onDrop: zone.drop,
      onPaste: zone.paste,
    };
  });

  const inputProps = computed((): DropZoneInputProps => {
    const { multiple = true, directory = false, accept, disabled = false } = toValue(options);
    return {
      ref: (element) => zone.setInput(element instanceof HTMLInputElement ? element : null),
      type: 'file',
      multiple,
      accept,
      disabled,
      webkitdirectory: directory ? '' : undefined,
      tabindex: -1,
      style: { display: 'none' },
      onClick: zone.inputClick,
      onChange: zone.inputChange,
    };
  });

  return { rootProps, inputProps, isDragActive, open: zone.open };
}
