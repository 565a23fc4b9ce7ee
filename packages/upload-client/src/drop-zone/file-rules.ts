/**
 * The rules a dropped, pasted or picked file is checked against before any request, so that the user
 * hears at once; the server still decides (its own `maxFileSize` and content types).
 */
export interface FileRules {
  /**
   * Accepted types, as the `accept` attribute of `<input type="file">`: comma-separated MIME types
   * (`image/png`), wildcards (`image/*`) and extensions (`.pdf`). Unset: every file.
   */
  accept?: string;
  /** Largest file accepted, in bytes. Unset: no limit here. */
  maxSize?: number;
  /** Smallest file accepted, in bytes. @default 0 */
  minSize?: number;
  /** Most files accepted in one drop, paste or pick; the others are rejected `too-many-files`. Unset: no limit. */
  maxFiles?: number;
}

/** Why a file was turned away (react-dropzone's codes). */
export type FileRejectionCode = 'file-invalid-type' | 'file-too-large' | 'file-too-small' | 'too-many-files';

/** A file turned away, why (`code`) and a sentence to show (`message`). */
export interface FileRejection {
  file: File;
  /** Path inside a dropped folder, when it came from one. */
  path?: string;
  code: FileRejectionCode;
  message: string;
}

/** Whether `file` matches one of `accept`'s entries (see {@link FileRules.accept}); case-insensitive. */
export function matchesAccept(file: File, accept: string | undefined): boolean {
  const entries = (accept ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  if (entries.length === 0) return true;
  const name = file.name.toLowerCase();
  const type = file.type.toLowerCase();
  return entries.some((entry) => {
    if (entry.startsWith('.')) return name.endsWith(entry);
    if (entry.endsWith('/*')) return type.startsWith(entry.slice(0, -1));
    return type === entry;
  });
}

/** The first rule `file` breaks, as a rejection, or `undefined` when it passes (the count is checked apart). */
export function checkFile(file: File, rules: FileRules): Omit<FileRejection, 'file' | 'path'> | undefined {
  if (!matchesAccept(file, rules.accept)) return { code: 'file-invalid-type', message: `${file.name}: this type of file is not accepted (${rules.accept}).` };
  if (rules.maxSize !== undefined && file.size > rules.maxSize) {
    return { code: 'file-too-large', message: `${file.name}: larger than ${rules.maxSize} bytes.` };
  }
  if (file.size < (rules.minSize ?? 0)) return { code: 'file-too-small', message: `${file.name}: smaller than ${rules.minSize} bytes.` };
  return undefined;
}
