import type { FileRejection } from '@upbeam/upload-client/drop-zone';
import type { UploadAppearance } from './parts';
import { partProps } from './parts';
import type { UploadLabels } from './labels';

/** The files refused before any request, each with its reason in words (`role="alert"`: read at once). */
export function Rejections({ rejected, labels, appearance }: { rejected: readonly FileRejection[]; labels: UploadLabels; appearance: UploadAppearance }) {
  return (
    <div role="alert">
      {rejected.length > 0 && (
        <ul {...partProps('rejections', appearance)} aria-label={labels.rejections}>
          {rejected.map((rejection) => (
            <li key={`${rejection.path ?? rejection.file.name}-${rejection.code}`}>{labels.rejection(rejection)}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
