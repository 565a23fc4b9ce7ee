import { useEffect } from 'react';

/**
 * Asks the browser to confirm before the page is left (closed, reloaded, navigated away) while `active`
 * (a `beforeunload` listener, removed when `active` turns false or the component goes). `<Uploader />` uses
 * it while files upload; for your own uploader UI: `useLeaveWarning(summary.count.uploading > 0)`.
 */
export function useLeaveWarning(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [active]);
}
