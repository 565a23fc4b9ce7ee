/**
 * @module
 * `@upbeam/upload-solid`: the `createS3Upload` and `createDropZone` primitives, Solid signals over
 * `@upbeam/upload-client`, a thin layer.
 *
 * It exports its own primitives and types, and the client's types of what they take and hand the app
 * (`DroppedFile`, `FileRejection`, `TrackedFile`, `UploadSummary`, `UploadResult`); the rest of the client
 * (`formatBytes`, the errors, `clearKeptUploads`, the option types) is imported from `@upbeam/upload-client`.
 */
export { createS3Upload, type S3Upload, type S3UploadOptions } from './create-s3-upload';
export { createRouteHooks, type RouteHooks } from './route-hooks';
export { createDropZone, type DropZone, type DropZoneInputProps, type DropZoneOptions, type DropZoneRootProps } from './create-drop-zone';
export type { DroppedFile, FileRejection } from '@upbeam/upload-client/drop-zone';
export type { TrackedFile, UploadResult, UploadSummary } from '@upbeam/upload-client';
