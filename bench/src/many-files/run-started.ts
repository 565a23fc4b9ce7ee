/**
 * The `performance.mark` the page makes when it hands the files to the client (page.tsx): a traced run
 * (`MANY_FILES_TRACE`, run.ts) counts its tasks from it, as the page counts its long tasks from that moment.
 */
export const RUN_STARTED_MARK = 'many-files-run-started';
