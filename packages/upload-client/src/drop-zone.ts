/**
 * @module
 * `@upbeam/upload-client/drop-zone`: the framework-free drop zone the React, Vue and Svelte bindings
 * share: file rules checked before any request, a dropped folder's files with their paths, pastes, and
 * the DOM event handlers of a drop zone's root and hidden file input.
 */
export { DropZoneController } from './drop-zone/drop-zone-controller';
export type { DropZoneOptions } from './drop-zone/drop-zone-options';
export type { FileRejection, FileRejectionCode, FileRules } from './drop-zone/file-rules';
export { filesOfTransfer, pickedFile, type DroppedFile } from './drop-zone/folder-entries';
export { sortFiles, type SortedFiles } from './drop-zone/sort-files';
