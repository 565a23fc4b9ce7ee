/**
 * @module
 * `@upbeam/upload-client/multipart`: the limits of an S3 multipart upload and the address of a stored object,
 * as the temporary-token strategy uses them. They live apart from the main entry so that an app's bundler
 * (Turbopack, webpack, Rollup, esbuild) keeps them, with the rest of the temporary-token code, out of the
 * chunk that the presigned path loads.
 */
export { DEFAULT_QUEUE_SIZE, MAX_PARTS, MIN_PART_SIZE, type MultipartOptions, type ObjectTag } from './multipart-options';
export { objectUrl, type ObjectLocation } from './object-url';
