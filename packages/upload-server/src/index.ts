/**
 * @module
 * `@upbeam/upload-server`: the preparation endpoint of Upbeam uploads, as a Fetch `Request -> Response`
 * handler. The browser asks it to prepare an upload; it answers with a presigned PUT URL for one object key,
 * temporary credentials for it, or the operations of a presigned multipart upload.
 */
export { createUploadHandler, type UploadHandler } from './handler';
export type { UploadHandlerConfig } from './config';
export { defineRoute, defineRoutes, type UploadRoute, type UploadRoutes } from './routes';
export { createObjectAccess, MAX_SIGNED_GET_EXPIRES_IN, type ObjectAccess, type SignedGetOptions } from './object-access';
export { MAX_OBJECT_TAGS } from './object-tags';
export { errorToResponse, isUploadError, UploadError, UPLOAD_ERROR_STATUS, type UploadErrorCode, type UploadErrorOptions } from './errors';
export type { LimitDecision, LimitName, LimitReservation, LimitStore, UploadLimits, WindowLimit } from './limit-store';
export { memoryLimitStore, type MemoryLimitStoreOptions } from './memory-limit-store';
export { DEFAULT_KEY_PREFIX, defaultObjectKey, isKeyUnder, sanitizeFileName } from './object-key';
export type { BeforeUploadContext, BeforeUploadHook, BeforeUploadResult, BeforeUploadReturn } from './hooks';
export { reconcileUploads, type ReconcileOptions, type ReconcileReport } from './reconcile';
export type { ReconciledObject } from './reconcile-object';
export { completeNotifiedUploads, type NotifiedUploads } from './storage-events';
export {
  MAX_SERVER_DATA_BYTES,
  type ReconciledUpload,
  type ReportedUpload,
  type StoredUpload,
  type UploadCompleteContext,
  type UploadCompleteHook,
} from './upload-completion';
export type { UploadPolicySettings } from './upload-policy';
// The node adapter's default `maxBodyBytes`.
export { MAX_COMPLETE_BODY_BYTES } from './limits';
export {
  MAX_TOKEN_DURATION_SECONDS,
  MIN_TOKEN_DURATION_SECONDS,
  TEMPORARY_TOKEN_DURATION_SECONDS,
  type TokenSettings,
} from './temporary-token';
export type { ObjectAcl, StorageSettings } from './storage-config';
export type { Env } from './env';
export type { HookContext } from './upload-context';
export type {
  PresignedUploadResponse,
  RouteRules,
  RouteRulesResponse,
  TemporaryCredentials,
  TemporaryTokenUploadResponse,
  UploadCompleteResponse,
  UploadErrorBody,
  UploadRequestBody,
  UploadStrategy,
} from '@upbeam/upload-protocol';
export {
  applyProviderPreset,
  PROVIDER_PRESETS,
  type ProviderPreset,
  type ProviderSettings,
  type ProviderSts,
  type StorageProvider,
} from './providers';
