import { UPLOADER_SELECTORS } from '@upbeam/test-browser';

/**
 * CSS selectors of this example's page, which is `<Uploader>` from `@upbeam/upload-react/components`: the
 * component's (`UPLOADER_SELECTORS`, shared with the Next.js example) and what this example adds under a
 * stored image (`stored-image`).
 */
export const SELECTORS = {
  ...UPLOADER_SELECTORS,
  storedImage: '[data-testid="stored-image"]',
} as const;
