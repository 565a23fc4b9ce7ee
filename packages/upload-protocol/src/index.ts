/**
 * @module
 * The wire contract between the browser (`@upbeam/upload-client`) and the preparation endpoint
 * (`@upbeam/upload-server`). Both sides import these types and constants; nothing else defines them.
 */
export {
  DEFAULT_UPLOAD_ENDPOINT,
  FALLBACK_CONTENT_TYPE,
  INTERNAL_ERROR_BODY,
  OBJECT_CACHE_CONTROL,
  UPLOAD_STRATEGIES,
} from './constants';
export type {
  PreparedUploadBase,
  PresignedUploadResponse,
  TemporaryCredentials,
  TemporaryTokenUploadResponse,
  UploadCompleteResponse,
  UploadErrorBody,
  UploadRequestBody,
  UploadResult,
  UploadStrategy,
} from './messages';
