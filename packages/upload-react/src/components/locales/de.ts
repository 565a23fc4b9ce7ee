import type { UploadLocale } from '../labels';
import { intlWords } from './intl-words';

const w = /* @__PURE__ */ intlWords('de');
const files = (n: number) => w.count(n, { one: '# Datei', other: '# Dateien' });

/**
 * German (`de`): the components' words as a German app writes them („Dateien hochladen“), numbers, sizes and
 * speeds in German (`1,2 MB/s`), plurals by `Intl.PluralRules`.
 * @example
 * <Uploader route="photos" locale={de} />
 */
export const de: UploadLocale = {
  locale: 'de',
  dir: 'ltr',
  labels: {
    status: {
      queued: 'Wartet',
      uploading: 'Wird hochgeladen',
      paused: 'Pausiert',
      done: 'Hochgeladen',
      error: 'Fehlgeschlagen',
      aborted: 'Abgebrochen',
      elsewhere: 'Wird in einem anderen Tab hochgeladen',
    },
    dropzone: 'Dateien oder einen Ordner hier ablegen',
    dropzoneSingle: 'Eine Datei hier ablegen',
    dropzoneActive: 'Zum Hochladen loslassen',
    dropzoneHint: 'oder klicken, um Dateien auszuwählen; Einfügen geht auch',
    button: 'Dateien hochladen',
    buttonUploading: (percent) => `Wird hochgeladen… ${w.percent(percent)}`,
    chooseFolder: 'Ordner auswählen',
    pause: 'Pausieren',
    resume: 'Fortsetzen',
    cancel: 'Abbrechen',
    retry: 'Erneut versuchen',
    remove: 'Entfernen',
    cancelAll: 'Alle abbrechen',
    clear: 'Liste leeren',
    // German puts the verb last: „hafen.png abbrechen“.
    fileAction: (action, name) => `${name} ${action.toLocaleLowerCase('de')}`,
    fileProgress: (name) => `Fortschritt von ${name}`,
    overallProgress: 'Fortschritt aller Dateien',
    region: 'Uploads',
    list: 'Dateien',
    rejections: 'Nicht hochgeladen',
    rejected: {
      'file-invalid-type': (name, accept) => `${name}: Dieser Dateityp wird nicht akzeptiert (${accept}).`,
      'file-too-large': (name, size) => `${name} ist zu groß (${size}).`,
      'file-too-small': (name, size) => `${name} ist zu klein (${size}).`,
      'too-many-files': (name, max) => `${name}: höchstens ${files(max)} auf einmal.`,
    },
    errors: {
      NETWORK_ERROR: 'Die Verbindung wurde unterbrochen. Prüfen Sie Ihr Netzwerk und versuchen Sie es erneut.',
      STORAGE_ERROR: 'Der Speicher hat die Datei abgelehnt.',
      FILE_UNREADABLE: 'Die Datei kann nicht mehr gelesen werden. Wählen Sie sie erneut aus.',
      TOO_MANY_FILES: 'Zu viele Dateien auf einmal.',
      UNAUTHORIZED: 'Melden Sie sich an, um Dateien hochzuladen.',
      FORBIDDEN: 'Sie dürfen diese Datei nicht hochladen.',
      FILE_TOO_LARGE: 'Die Datei ist zu groß.',
      FILE_TYPE_NOT_ALLOWED: 'Dieser Dateityp wird nicht akzeptiert.',
      RATE_LIMITED: 'Zu viele Anfragen. Versuchen Sie es gleich noch einmal.',
      QUOTA_EXCEEDED: 'Upload-Kontingent erreicht. Versuchen Sie es später erneut.',
    },
    uploadFailed: 'Der Upload ist fehlgeschlagen.',
    percent: (percent) => w.percent(percent),
    separator: ' · ',
    timeLeft: (seconds) => (seconds < 1 ? 'noch weniger als eine Sekunde' : `noch etwa ${w.duration(seconds)[0]}`),
    filesUploaded: (done, total) => `${w.number(done)} von ${files(total)} hochgeladen`,
    failed: (count) => `${w.number(count)} fehlgeschlagen`,
    cancelled: (count) => `${w.number(count)} abgebrochen`,
    queued: (count) => `${w.number(count)} in der Warteschlange`,
    announceProgress: (tenth, done, total) => `Wird hochgeladen: ${w.percent(tenth)}, ${w.number(done)} von ${files(total)} fertig.`,
    announceEnded: (counts) => `${counts.join(', ')}.`,
  },
};
