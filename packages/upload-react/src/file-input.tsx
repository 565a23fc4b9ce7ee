import type { ChangeEvent, InputHTMLAttributes } from 'react';

/** Props of the hook's `FileInput`: those of `<input type="file">`, with `onChange` receiving the picked file. */
export interface FileInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'type'> {
  /** Called with the picked file (the first one, when several are picked). */
  onChange?: (file: File, event: ChangeEvent<HTMLInputElement>) => void;
}

/**
 * Builds the hook's hidden file input and the function that opens its file dialog, bound to one input
 * element. Made once per hook instance: a component made on every render would remount the input each time.
 */
export function createFileInput() {
  const input: { current: HTMLInputElement | null } = { current: null };
  return {
    FileInput({ onChange, style, ...props }: FileInputProps) {
      return (
        <input
          {...props}
          ref={input}
          type="file"
          // Inline, so that no stylesheet rule for inputs shows it (the `hidden` attribute yields to any
          // `display` rule); pass a `display` in `style` to show it.
          style={{ display: 'none', ...style }}
          onChange={(event) => {
            const file = event.target.files?.[0];
            // Cleared so that picking the same file again fires onChange again.
            event.target.value = '';
            if (file) onChange?.(file, event);
          }}
        />
      );
    },
    /** Opens the browser's file dialog of the rendered `FileInput`. */
    openFileDialog: () => input.current?.click(),
  };
}
