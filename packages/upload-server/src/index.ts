/**
 * @module
 * `@upbeam/upload-server`: the preparation endpoint of Upbeam uploads, as a Fetch `Request -> Response`
 * handler. The browser asks it to prepare an upload; it answers with a presigned PUT URL for one object key,
 * temporary credentials for it, or the operations of a presigned multipart upload.
 */
export { createUploadHandler, type UploadHandler, type UploadHandlerConfig } from './handler';
export { defineRoutes, type UploadRoute, type UploadRoutes } from './routes';
export { createObjectAccess, MAX_SIGNED_GET_EXPIRES_IN, type ObjectAccess, type SignedGetOptions } from './object-access';
export { MAX_OBJECT_TAGS } from './object-tags';
export { errorToResponse, isUploadError, UploadError, UPLOAD_ERROR_STATUS, type UploadErrorCode } from './errors';
export {
  assertValidObjectKey,
  DEFAULT_KEY_PREFIX,
  defaultObjectKey,
  MAX_KEY_BYTES,
  sanitizeFileName,
} from './object-key';
export type { BeforeUploadContext, BeforeUploadHook, BeforeUploadResult } from './hooks';
export { COMPLETION_CLAIM_SECONDS, COMPLETION_MARKER_PREFIX } from './completion-marker';
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
export { OBJECT_ACL_HEADER, PRESIGNED_URL_EXPIRES_IN } from './presign';
export { NO_ROLE_CHAINING_CONDITION } from './role-chaining';
export { MAX_BODY_BYTES, MAX_COMPLETE_BODY_BYTES, MAX_OBJECT_BYTES } from './request-body';
export { TICKET_TTL_SECONDS } from './ticket';
export {
  arnPartition,
  MAX_TOKEN_DURATION_SECONDS,
  MIN_TOKEN_DURATION_SECONDS,
  GRANT_CONDITION_KEYS,
  PUBLIC_CANNED_ACLS,
  TEMPORARY_TOKEN_DURATION_SECONDS,
  UPLOAD_TOKEN_NAME,
  uploadTokenPolicy,
  type TokenSettings,
} from './temporary-token';
export {
  OBJECT_ACLS,
  resolveStorageSettings,
  resolveStsSettings,
  SETTING_ENV,
  SSE_CUSTOMER_KEY_BYTES,
  type ObjectAcl,
  type ResolvedStorageSettings,
  type StorageSettings,
} from './settings';
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
