/**
 * @module
 * `@upbeam/upload-svelte`: `createS3Upload` and `createDropZone`, runes-reactive state for Svelte 5, a thin
 * layer over `@upbeam/upload-client`.
 *
 * It exports its own functions and types, and the client's types of what they take and hand the app
 * (`DropZoneOptions`, `DroppedFile`, `FileRejection`, `TrackedFile`, `UploadSummary`, `UploadResult`); the rest
 * of the client (`formatBytes`, the errors, `clearKeptUploads`, the option types) is imported from
 * `@upbeam/upload-client`.
 */
export { createS3Upload, type S3Upload, type S3UploadOptions } from './create-s3-upload';
export { createRouteHooks, type RouteHooks } from './route-hooks';
export { createDropZone, type DropZone, type DropZoneInputProps, type DropZoneRootProps } from './create-drop-zone';
export type { DropZoneOptions, DroppedFile, FileRejection } from '@upbeam/upload-client/drop-zone';
export type { TrackedFile, UploadResult, UploadSummary } from '@upbeam/upload-client';
