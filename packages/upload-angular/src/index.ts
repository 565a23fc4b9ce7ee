/**
 * @module
 * `@upbeam/upload-angular`: `injectS3Upload`, each file's progress as Angular signals, and the standalone
 * `UpbeamDropZone` directive (`[upbeamDropZone]`, with `UpbeamDropZoneInput` for its hidden input), a thin
 * layer over `@upbeam/upload-client`.
 *
 * It exports its own functions, directives and types, and the client's types of what they take and hand the
 * app (`DropZoneOptions`, `DroppedFile`, `FileRejection`, `TrackedFile`, `UploadSummary`, `UploadResult`); the
 * rest of the client (`formatBytes`, the errors, `clearKeptUploads`, the option types) is imported from
 * `@upbeam/upload-client`.
 */
export { injectS3Upload, type S3Upload, type S3UploadOptions } from './inject-s3-upload.js';
export { createRouteHooks, type RouteHooks } from './route-hooks.js';
export { UpbeamDropZone, UpbeamDropZoneInput } from './drop-zone.js';
export type { DropZoneOptions, DroppedFile, FileRejection } from '@upbeam/upload-client/drop-zone';
export type { TrackedFile, UploadResult, UploadSummary } from '@upbeam/upload-client';
