import { formatBytes } from '@upbeam/upload-client';
import { useEffect } from 'react';

/**
 * Makes the number formats the rows use (sizes and speeds in `locale`, with and without a decimal) while the
 * browser is idle after the list mounts. A page's first `Intl.NumberFormat` costs 23-36 ms in chromium (its
 * number data is loaded then; the next ones take 0.1 ms): the frame that draws the first rows of a drop then
 * does not pay it (bench/notes/lists-at-scale.md, "The first number format of a page"). Nothing where the
 * browser has no `requestIdleCallback` (Safari): the first rows make them.
 */
export function useWarmNumberFormats(locale: string | undefined): void {
  useEffect(() => {
    if (typeof requestIdleCallback !== 'function') return;
    const idle = requestIdleCallback(() => {
      formatBytes(1, { locale });
      formatBytes(1500, { locale });
    });
    return () => cancelIdleCallback(idle);
  }, [locale]);
}
