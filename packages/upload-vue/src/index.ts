/**
 * @module
 * `@upbeam/upload-vue`: the `useS3Upload` and `useDropZone` composables, a thin Vue 3 layer over
 * `@upbeam/upload-client`.
 */
export { useS3Upload, type UseS3Upload, type UseS3UploadOptions } from './use-s3-upload';
export { useDropZone, type DropZoneInputProps, type DropZoneRootProps, type UseDropZone } from './use-drop-zone';
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
