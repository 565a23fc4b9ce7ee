/**
 * @module
 * `@upbeam/upload-client`: the framework-free browser engine of Upbeam. It asks your preparation endpoint
 * for a presigned URL and sends the file straight to S3-compatible storage, with progress and cancel.
 */
export { uploadFile } from './upload-file';
export { UploadTracker, type Uploader, type UploadTrackerOptions } from './upload-tracker';
export { uploadActions, type RouteTrackerOptions, type UploadActions } from './upload-actions';
export type { FileWithPath, TrackedFile, TrackedFileStatus } from './tracked-file';
export type { UploadSummary } from './upload-summary';
export type { Persistence, PersistOptions } from './persisted-queue';
export type { BackgroundOptions } from './background/background-uploads';
export { clearKeptUploads } from './clear-kept-uploads';
export { DEFAULT_CONCURRENCY } from './upload-queue';
export { PauseController } from './pause';
export { createPacedScheduler, type Pace, type PacedSchedule } from './paced-scheduler';
// Types only: the multipart constants and objectUrl are values of `@upbeam/upload-client/multipart`, so that
// the presigned path's chunk does not carry the multipart code (see src/multipart.ts).
export type { FileTransform, MultipartOptions, ObjectTag, PrepareEndpoint, ResumeOptions, UploadOptions } from './types';
export type { RouteOption, RouteResultData, RouteUploadOptions, RouteUploadResult } from './routes';
export { fetchRouteRules } from './route-rules';
export { createRouteClient, type RouteClient } from './route-client';
export type { AnyRoutes, RouteName, RouteRules, RouteServerData } from '@upbeam/upload-protocol';
export { DEFAULT_MAX_ATTEMPTS, type RetryEvent, type RetryListener, type RetryOptions } from './retry';
export type { ProgressListener, UploadProgress } from './progress';
export { formatBytes, type FormatBytesOptions } from './format-bytes';
export { isAbortError } from './abort';
export { RATE_WINDOW_MS, TransferRate } from './transfer-rate';
export {
  isUploadClientError,
  UploadClientError,
  type UploadClientErrorCode,
  type UploadClientErrorDetails,
} from './errors';
export { DEFAULT_UPLOAD_ENDPOINT, type ObjectChecksum, type UploadResult, type UploadStrategy } from '@upbeam/upload-protocol';
export type { ChecksumOption } from './types';
