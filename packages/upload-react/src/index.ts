/**
 * @module
 * `@upbeam/upload-react`: the `useS3Upload` hook, a thin React layer over `@upbeam/upload-client`.
 */
export { useS3Upload, type UseS3Upload, type UseS3UploadOptions } from './use-s3-upload';
export { createRouteHooks, type RouteHooks } from './route-hooks';
export { useTrackedFile, type TrackedFileStore } from './use-tracked-file';
export { useTrackedIds, type TrackedIdsStore } from './use-tracked-ids';
export type { FileInputProps } from './file-input';
export {
  useDropZone,
  type DropZone,
  type DropZoneInputProps,
  type DropZoneOptions,
  type DropZoneRootProps,
  type DroppedFile,
} from './use-drop-zone';
export type { FileRejection, FileRejectionCode, FileRules } from '@upbeam/upload-client/drop-zone';
export {
  clearKeptUploads,
  isAbortError,
  isUploadClientError,
  PauseController,
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
