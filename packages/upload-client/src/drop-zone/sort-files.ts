import { checkFile, type FileRejection, type FileRules } from './file-rules';
import type { DroppedFile } from './folder-entries';

/** The files of one drop, paste or pick, split by the rules. */
export interface SortedFiles {
  accepted: DroppedFile[];
  rejected: FileRejection[];
}

/**
 * Splits the files of one drop, paste or pick into those that pass `rules` and those that do not, with
 * why. Past `maxFiles` (or past the first file when `multiple` is false), a file that passes is rejected
 * `too-many-files`.
 */
export function sortFiles(files: readonly DroppedFile[], rules: FileRules & { multiple?: boolean }): SortedFiles {
  return fileSorter(rules)(files);
}

/**
 * A sorter for the batches of one drop (a folder read in batches): each call sorts a batch as
 * {@link sortFiles} does, `maxFiles` counted over every batch of the drop so far.
 */
export function fileSorter(rules: FileRules & { multiple?: boolean }): (files: readonly DroppedFile[]) => SortedFiles {
  const limit = rules.multiple === false ? 1 : (rules.maxFiles ?? Number.POSITIVE_INFINITY);
  let acceptedBefore = 0;
  return (files) => {
    const accepted: DroppedFile[] = [];
    const rejected: FileRejection[] = [];
    for (const dropped of files) {
      const broken = checkFile(dropped.file, rules);
      if (broken) rejected.push({ ...dropped, ...broken });
      else if (acceptedBefore + accepted.length >= limit) {
        rejected.push({ ...dropped, code: 'too-many-files', message: `${dropped.file.name}: at most ${limit} files at once.` });
      } else accepted.push(dropped);
    }
    acceptedBefore += accepted.length;
    return { accepted, rejected };
  };
}
