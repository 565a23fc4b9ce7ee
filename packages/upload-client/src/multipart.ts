/**
 * @module
 * `@upbeam/upload-client/multipart`: the limits of an S3 multipart upload (from `@upbeam/upload-protocol`,
 * where both sides read them), the engine's defaults, and the address of a stored object. They live apart
 * from the main entry so that an app's bundler keeps them out of the chunk that the presigned single PUT
 * path loads.
 */
export { MAX_OBJECT_SIZE, MAX_PART_SIZE, MAX_PARTS, MAX_SINGLE_PUT_SIZE, MIN_PART_SIZE } from '@upbeam/upload-protocol';
export { DEFAULT_PART_SIZE, DEFAULT_QUEUE_SIZE } from './part-math';
export { DEFAULT_MULTIPART_THRESHOLD } from './multipart-threshold';
export type { MultipartOptions, ObjectTag, ResumeOptions } from './types';
export { objectUrl, type ObjectLocation } from './object-url';
