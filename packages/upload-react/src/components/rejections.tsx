import type { FileRejection, FileRules } from '@upbeam/upload-client/drop-zone';
import { rejectionText } from './format';
import { localeTag, type UploadLabels } from './labels';
import type { UploadAppearance } from './parts';
import { partProps } from './parts';

/** Props of {@link Rejections}. */
interface RejectionsProps {
  rejected: readonly FileRejection[];
  /** The rules the files were checked against (their limits are named in the words). */
  rules: FileRules;
  labels: UploadLabels;
  appearance: UploadAppearance;
}

/** The files refused before any request, each with its reason in words (`role="alert"`: read at once). */
export function Rejections({ rejected, rules, labels, appearance }: RejectionsProps) {
  const locale = localeTag(appearance.locale);
  return (
    <div role="alert">
      {rejected.length > 0 && (
        <ul {...partProps('rejections', appearance)} aria-label={labels.rejections}>
          {rejected.map((rejection) => (
            <li key={`${rejection.path ?? rejection.file.name}-${rejection.code}`}>{rejectionText(rejection, rules, labels, locale)}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
