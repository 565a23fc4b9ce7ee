import type { UploadSummary } from '@upbeam/upload-client';
import { describe, expect, it } from 'vitest';
import type { FileRejection } from '@upbeam/upload-client/drop-zone';
import { announcement, errorText, rejectionText, summaryText } from './format';
import { DEFAULT_LABELS, formatTimeLeft, withDefaults } from './labels';

const summary = (count: Partial<UploadSummary['count']>, more: Partial<UploadSummary> = {}): UploadSummary => ({
  uploaded: 0,
  size: 0,
  progress: 0,
  bytesPerSecond: 0,
  secondsLeft: undefined,
  count: { queued: 0, uploading: 0, paused: 0, done: 0, error: 0, aborted: 0, elsewhere: 0, ...count },
  ...more,
});

describe('formatTimeLeft', () => {
  it.each([
    [0.4, 'less than a second left'],
    [1, 'about 1 s left'],
    [12.2, 'about 13 s left'],
    [59.5, 'about 1 min left'],
    [60, 'about 1 min left'],
    [61, 'about 2 min left'],
    [3599, 'about 1 h left'],
    [7200, 'about 2 h left'],
    [3900, 'about 1 h 5 min left'],
  ])('%s s reads %s', (seconds, text) => {
    expect(formatTimeLeft(seconds)).toBe(text);
  });
});

describe('summaryText', () => {
  it('names the files done, failed, cancelled and queued, the percent, speed in powers of 1000 and time left', () => {
    const text = summaryText(summary({ done: 2, error: 1, aborted: 1, queued: 1, uploading: 1 }, { progress: 64.7, bytesPerSecond: 999_960, secondsLeft: 3.2 }), DEFAULT_LABELS, 'en');
    expect(text).toBe('2 of 6 files uploaded · 1 failed · 1 cancelled · 1 queued · 64% · 1.0 MB/s · about 4 s left');
  });

  it('one file, no speed once nothing is sent', () => {
    expect(summaryText(summary({ done: 1 }, { progress: 100 }), DEFAULT_LABELS)).toBe('1 of 1 file uploaded · 100%');
  });

  it('writes the speed in the locale', () => {
    expect(summaryText(summary({ uploading: 1 }, { progress: 5, bytesPerSecond: 1_234_000 }), DEFAULT_LABELS, 'de')).toBe('0 of 1 file uploaded · 5% · 1,2 MB/s');
  });
});

describe('announcement', () => {
  it('is empty with no file', () => {
    expect(announcement(summary({}), DEFAULT_LABELS)).toBe('');
  });

  it('counts by tenths while files upload, never by progress event', () => {
    expect(announcement(summary({ uploading: 1, done: 1 }, { progress: 47.9 }), DEFAULT_LABELS)).toBe('Uploading: 40%, 1 of 2 files done.');
    expect(announcement(summary({ uploading: 1, done: 1 }, { progress: 49.9 }), DEFAULT_LABELS)).toBe('Uploading: 40%, 1 of 2 files done.');
    expect(announcement(summary({ paused: 1 }, { progress: 100 }), DEFAULT_LABELS)).toBe('Uploading: 100%, 0 of 1 file done.');
  });

  it('says how it ended, naming failed and cancelled files', () => {
    expect(announcement(summary({ done: 3, error: 1, aborted: 2 }, { progress: 100 }), DEFAULT_LABELS)).toBe('3 of 6 files uploaded, 1 failed, 2 cancelled.');
  });
});

describe('labels', () => {
  it('override some words, keeping the other status words', () => {
    const labels = withDefaults({ status: { done: 'Hochgeladen' } as never, cancel: 'Abbrechen' });
    expect(labels.status.done).toBe('Hochgeladen');
    expect(labels.status.error).toBe('Failed');
    expect(labels.fileAction(labels.cancel, 'harbour.png')).toBe('Abbrechen harbour.png');
  });
});

describe('rejectionText', () => {
  const file = new File([new Uint8Array(1_500_000)], 'scan.tif');
  const rules = { accept: 'image/*', maxSize: 1_000_000, minSize: 2_000_000, maxFiles: 1 };
  it('words each code with its rule: a size in powers of 1000, the relative path of a folder\'s file', () => {
    const text = (rejection: Omit<FileRejection, 'file' | 'message'>) => rejectionText({ file, message: 'core words', ...rejection }, rules, DEFAULT_LABELS);
    expect(text({ code: 'file-too-large' })).toBe('scan.tif is too large (1.5 MB).');
    expect(text({ path: 'a/scan.tif', code: 'file-too-large' })).toBe('a/scan.tif is too large (1.5 MB).');
    expect(text({ code: 'file-too-small' })).toBe('scan.tif is too small (1.5 MB).');
    expect(text({ code: 'file-invalid-type' })).toBe('scan.tif: this type of file is not accepted (image/*).');
    expect(text({ code: 'too-many-files' })).toBe('scan.tif: at most 1 file at once.');
    expect(rejectionText({ file, code: 'too-many-files', message: '' }, { maxFiles: 3 }, DEFAULT_LABELS)).toBe('scan.tif: at most 3 files at once.');
  });

  it('in the locale given: its sizes and its words; `rejection` still replaces them all', () => {
    const labels = withDefaults({ rejected: { 'file-too-large': (name, size, max) => `${name}: ${size} > ${max}` } });
    expect(rejectionText({ file, code: 'file-too-large', message: '' }, rules, labels, 'de')).toBe('scan.tif: 1,5 MB > 1,0 MB');
    expect(rejectionText({ file, code: 'file-too-large', message: 'm' }, rules, withDefaults({ rejection: (r) => r.message }))).toBe('m');
  });
});

describe('errorText', () => {
  it("is the error's message, never [object Object]", () => {
    expect(errorText(new Error('Storage refused the upload (500).'), DEFAULT_LABELS)).toBe('Storage refused the upload (500).');
    expect(errorText(new DOMException('Upload aborted.', 'AbortError'), DEFAULT_LABELS)).toBe('Upload aborted.');
    expect(errorText({ weird: true }, DEFAULT_LABELS)).toBe('The upload failed.');
  });

  it("is the words of the endpoint's code, else of the client's code, else the server's message", () => {
    const labels = withDefaults({ errors: { FILE_TOO_LARGE: 'Trop gros.', NETWORK_ERROR: 'Hors ligne.' }, uploadFailed: 'Échec.' });
    const error = (code: string, answerCode?: string) => Object.assign(new Error('The file is too large (max 1 MB).'), { code, answerCode });
    expect(errorText(error('PREPARE_FAILED', 'FILE_TOO_LARGE'), labels)).toBe('Trop gros.');
    expect(errorText(error('NETWORK_ERROR'), labels)).toBe('Hors ligne.');
    expect(errorText(error('PREPARE_FAILED', 'MY_APP_CODE'), labels)).toBe('The file is too large (max 1 MB).');
    expect(errorText(undefined, labels)).toBe('Échec.');
  });
});
