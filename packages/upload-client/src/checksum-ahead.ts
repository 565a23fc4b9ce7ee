/**
 * The tracker's hashing ahead (`hashAheadFor`), loaded with `import()` with the first queued file whose checksum
 * is known, in a chunk of the checksum family (`checksum-*`): a page whose uploads have no checksum never
 * downloads the single PUT's digest cache.
 */
export { hashAhead } from './single-put-checksum';
