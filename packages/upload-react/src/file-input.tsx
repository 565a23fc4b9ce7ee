import type { ChangeEvent, InputHTMLAttributes, RefObject } from 'react';

/** Props of the hook's `FileInput`: those of `<input type="file">`, with `onChange` receiving the picked file. */
export interface FileInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'type'> {
  /** Called with the picked file (the first one, when several are picked). */
  onChange?: (file: File, event: ChangeEvent<HTMLInputElement>) => void;
}

/**
 * Builds the hidden file input bound to the hook's ref, so that `openFileDialog()` can click it. Made once
 * per hook instance: a component made on every render would remount the input each time.
 */
export function createFileInput(ref: RefObject<HTMLInputElement | null>) {
  return function FileInput({ onChange, style, ...props }: FileInputProps) {
    return (
      <input
        {...props}
        ref={ref}
        type="file"
        style={{ display: 'none', ...style }}
        onChange={(event) => {
          const file = event.target.files?.[0];
          // Cleared so that picking the same file again fires onChange again.
          event.target.value = '';
          if (file) onChange?.(file, event);
        }}
      />
    );
  };
}
