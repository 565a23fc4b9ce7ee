/**
 * @module
 * `@upbeam/upload-vue`: the `useS3Upload` and `useDropZone` composables, a thin Vue 3 layer over
 * `@upbeam/upload-client`.
 *
 * It exports its own composables and types, and the client's types of what they take and hand the app
 * (`DropZoneOptions`, `DroppedFile`, `FileRejection`, `TrackedFile`, `UploadSummary`, `UploadResult`); the rest
 * of the client (`formatBytes`, the errors, `clearKeptUploads`, the option types) is imported from
 * `@upbeam/upload-client`.
 */
export { useS3Upload, type UseS3Upload, type UseS3UploadOptions } from './use-s3-upload';
export { createRouteHooks, type RouteHooks } from './route-hooks';
export { useDropZone, type DropZoneInputProps, type DropZoneRootProps, type UseDropZone } from './use-drop-zone';
export type { DropZoneOptions, DroppedFile, FileRejection } from '@upbeam/upload-client/drop-zone';
export type { TrackedFile, UploadResult, UploadSummary } from '@upbeam/upload-client';
