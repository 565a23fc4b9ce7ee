import type { FileRejection, FileRules } from './file-rules';
import type { DroppedFile } from './folder-entries';

/** Options of a drop zone: the rules checked before any request, and what to do with the files. */
export interface DropZoneOptions extends FileRules {
  /**
   * Called after each drop, paste or pick with the files that pass the rules (a folder's files with their
   * `path`, `photos/2024/a.jpg`) and those that do not, with why. Give the first to `addFiles` of `useS3Upload`.
   * A dropped folder's files come in batches as the folder is read (the first within a frame or two of the drop,
   * then about every 100 ms or 1,000 files): `onDrop` is called once per batch, `maxFiles` counted over the drop.
   */
  onDrop: (accepted: DroppedFile[], rejected: FileRejection[]) => void;
  /** Several files at once; when false, the first accepted file only (the others `too-many-files`). @default true */
  multiple?: boolean;
  /** The file dialog picks a folder (`webkitdirectory`): its files come with their `path`. @default false */
  directory?: boolean;
  /**
   * Where pasted files are taken: `root` (the drop zone, which takes focus), `document` (anywhere on the
   * page) or `false` (not at all).
   * @default 'root'
   */
  paste?: 'root' | 'document' | false;
  /** Takes no files and opens no dialog. @default false */
  disabled?: boolean;
}
