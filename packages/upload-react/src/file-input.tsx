import type { ChangeEvent, InputHTMLAttributes } from 'react';

/**
 * Props of the hook's `FileInput`: those of `<input type="file">` (`multiple`, `accept`, `webkitdirectory`
 * …), with `onChange` receiving the first picked file and `onFiles` all of them.
 */
export interface FileInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'type'> {
  /** Called with the picked file (the first one, when several are picked). */
  onChange?: (file: File, event: ChangeEvent<HTMLInputElement>) => void;
  /** Called with every picked file, in the dialog's order (with `multiple`, or a folder's files). */
  onFiles?: (files: File[], event: ChangeEvent<HTMLInputElement>) => void;
}

/**
 * Builds the hook's hidden file input and the function that opens its file dialog, bound to one input
 * element. Made once per hook instance: a component made on every render would remount the input each time.
 */
export function createFileInput() {
  const input: { current: HTMLInputElement | null } = { current: null };
  return {
    FileInput({ onChange, onFiles, style, ...props }: FileInputProps) {
      return (
        <input
          {...props}
          ref={input}
          type="file"
          // Inline, so that no stylesheet rule for inputs shows it (the `hidden` attribute yields to any
          // `display` rule); pass a `display` in `style` to show it.
          style={{ display: 'none', ...style }}
          onChange={(event) => {
            const files = Array.from(event.target.files ?? []);
            // Cleared so that picking the same file again fires onChange again.
            event.target.value = '';
            if (files[0]) onChange?.(files[0], event);
            if (files.length > 0) onFiles?.(files, event);
          }}
        />
      );
    },
    /** Opens the browser's file dialog of the rendered `FileInput`. */
    openFileDialog: () => input.current?.click(),
  };
}
