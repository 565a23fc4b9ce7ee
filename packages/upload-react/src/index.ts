/**
 * @module
 * `@upbeam/upload-react`: the `useS3Upload` hook, a thin React layer over `@upbeam/upload-client`.
 *
 * It exports its own hooks and types, and the client's types of what they hand the app (`TrackedFile`,
 * `UploadSummary`, `UploadResult`, `FileRejection`); the rest of the client (`formatBytes`, the errors,
 * `clearKeptUploads`, the option types) is imported from `@upbeam/upload-client`.
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
export type { FileRejection } from '@upbeam/upload-client/drop-zone';
export type { TrackedFile, UploadResult, UploadSummary } from '@upbeam/upload-client';
