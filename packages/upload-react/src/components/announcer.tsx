import type { UploadSummary } from '@upbeam/upload-client';
import { announcement } from './format';
import type { UploadLabels } from './labels';

/** Read by screen readers, not shown (inline, so that `unstyled` keeps it hidden). */
const VISUALLY_HIDDEN = { position: 'absolute', width: 1, height: 1, margin: -1, padding: 0, overflow: 'hidden', clipPath: 'inset(50%)', whiteSpace: 'nowrap', border: 0 } as const;

/**
 * The polite live region of a component: what its uploads are at, by tenths, and how they ended
 * ({@link announcement}); its text changes only then, so a screen reader is not flooded.
 */
export function Announcer({ summary, labels }: { summary: UploadSummary; labels: UploadLabels }) {
  return (
    <p style={VISUALLY_HIDDEN} aria-live="polite" data-upbeam="announcement">
      {announcement(summary, labels)}
    </p>
  );
}
