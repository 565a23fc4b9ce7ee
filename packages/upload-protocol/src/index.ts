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
  POST_TOO_LARGE_MESSAGE,
  TOKEN_OBJECT_CACHE_CONTROL,
  UPLOAD_STRATEGIES,
} from './constants';
export {
  CHECKSUM_ALGORITHMS,
  CHECKSUM_DIGEST_BYTES,
  CHECKSUM_HEADERS,
  MULTIPART_CHECKSUM_TYPES,
  type ChecksumAlgorithm,
  type ChecksumErrorCode,
  type ChecksumRequest,
  type ObjectChecksum,
} from './checksum';
export type {
  PresignedPostUploadResponse,
  PresignedUploadResponse,
  TemporaryCredentials,
  TemporaryTokenUploadResponse,
  UploadCompleteResponse,
  UploadErrorBody,
  UploadRequestBody,
  UploadResult,
  UploadMarker,
  UploadStrategy,
} from './messages';
export type { PreparedUploadBase } from './prepared-upload';
export type { AnyRoutes, RouteName, RouteRules, RouteRulesResponse, RouteServerData } from './routes';
export {
  MAX_OBJECT_SIZE,
  MAX_PART_SIZE,
  MAX_PARTS,
  MAX_PARTS_PER_SIGN_REQUEST,
  MAX_SINGLE_PUT_SIZE,
  MIN_PART_SIZE,
  type AbortMultipartResponse,
  type CompletedPart,
  type CompleteMultipartResponse,
  type ListPartsResponse,
  type MultipartAction,
  type MultipartErrorCode,
  type MultipartRequest,
  type MultipartUploadResponse,
  type RenewRequest,
  type SignedPart,
  type SignPartsResponse,
  type StoredPart,
} from './multipart';
