/**
 * @module
 * `@upbeam/upload-svelte`: `createS3Upload` and `createDropZone`, runes-reactive state for Svelte 5, a thin
 * layer over `@upbeam/upload-client`.
 */
export { createS3Upload, type S3Upload, type S3UploadOptions } from './create-s3-upload';
export { createDropZone, type DropZone, type DropZoneInputProps, type DropZoneRootProps } from './create-drop-zone';
export type { DropZoneOptions, DroppedFile, FileRejection, FileRejectionCode, FileRules } from '@upbeam/upload-client/drop-zone';
export {
  clearKeptUploads,
  isAbortError,
  isUploadClientError,
  UploadClientError,
  DEFAULT_CONCURRENCY,
  formatBytes,
  type FormatBytesOptions,
  type FileWithPath,
  type Persistence,
  type PersistOptions,
  type ResumeOptions,
  type TrackedFile,
  type UploadSummary,
  type UploadTrackerOptions,
  type TrackedFileStatus,
  type MultipartOptions,
  type ObjectTag,
  type UploadOptions,
  type UploadProgress,
} from '@upbeam/upload-client';
export type { UploadResult, UploadStrategy } from '@upbeam/upload-protocol';
