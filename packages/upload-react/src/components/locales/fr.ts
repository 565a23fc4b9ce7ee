import type { UploadLocale } from '../labels';
import { intlWords } from './intl-words';

const w = /* @__PURE__ */ intlWords('fr');
const files = (n: number, what: string) => w.count(n, { one: `# fichier ${what}`, many: `# de fichiers ${what}s`, other: `# fichiers ${what}s` });

/**
 * French ('fr'): the components' words as a French app writes them (« Importer des fichiers »), numbers,
 * sizes and speeds in French ('1,2 Mo/s' is written '1,2 MB/s': the units stay SI symbols), plurals by
 * 'Intl.PluralRules' (0 and 1 are singular; a million takes « de »).
 * @example
 * <Uploader route="photos" locale={fr} />
 */
// French puts a narrow no-break space (U+202F) before `:` and `;`.
export const fr: UploadLocale = {
  locale: 'fr',
  dir: 'ltr',
  labels: {
    status: {
      queued: 'En attente',
      uploading: 'Importation',
      paused: 'En pause',
      done: 'Importé',
      error: 'Échec',
      aborted: 'Annulé',
      elsewhere: 'Importation dans un autre onglet',
    },
    dropzone: 'Déposez des fichiers ou un dossier ici',
    dropzoneSingle: 'Déposez un fichier ici',
    dropzoneActive: 'Relâchez pour importer',
    dropzoneHint: 'ou appuyez pour choisir des fichiers\u202f; vous pouvez aussi les coller',
    button: 'Importer des fichiers',
    buttonUploading: (percent) => `Importation… ${w.percent(percent)}`,
    chooseFolder: 'Choisir un dossier',
    pause: 'Mettre en pause',
    resume: 'Reprendre',
    cancel: 'Annuler',
    retry: 'Réessayer',
    remove: 'Retirer',
    cancelAll: 'Tout annuler',
    clear: 'Vider la liste',
    fileAction: (action, name) => `${action} ${name}`,
    fileProgress: (name) => `Progression de ${name}`,
    overallProgress: 'Progression de tous les fichiers',
    region: 'Importations',
    list: 'Fichiers',
    rejections: 'Non importés',
    rejected: {
      'file-invalid-type': (name, accept) => `${name}\u202f: ce type de fichier n’est pas accepté (${accept}).`,
      'file-too-large': (name, size) => `${name} est trop volumineux (${size}).`,
      'file-too-small': (name, size) => `${name} est trop petit (${size}).`,
      'too-many-files': (name, max) => `${name}\u202f: pas plus de ${w.count(max, { one: '# fichier', many: '# de fichiers', other: '# fichiers' })} à la fois.`,
    },
    errors: {
      NETWORK_ERROR: 'La connexion a été interrompue. Vérifiez votre réseau et réessayez.',
      STORAGE_ERROR: 'Le stockage a refusé le fichier.',
      FILE_UNREADABLE: 'Le fichier ne peut plus être lu\u202f: choisissez-le à nouveau.',
      TOO_MANY_FILES: 'Trop de fichiers à la fois.',
      UNAUTHORIZED: 'Connectez-vous pour importer des fichiers.',
      FORBIDDEN: 'Vous n’avez pas le droit d’importer ce fichier.',
      FILE_TOO_LARGE: 'Le fichier est trop volumineux.',
      FILE_TYPE_NOT_ALLOWED: 'Ce type de fichier n’est pas accepté.',
      RATE_LIMITED: 'Trop de demandes\u202f: réessayez dans un instant.',
      QUOTA_EXCEEDED: 'Quota d’importation atteint\u202f: réessayez plus tard.',
    },
    uploadFailed: 'L’importation a échoué.',
    percent: (percent) => w.percent(percent),
    separator: ' · ',
    // Seconds, minutes and hours are feminine: « restante » agrees with the number alone.
    timeLeft: (seconds) => {
      if (seconds < 1) return 'moins d’une seconde restante';
      const [text, singular] = w.duration(seconds);
      return `environ ${text} ${singular ? 'restante' : 'restantes'}`;
    },
    filesUploaded: (done, total) => `${files(done, 'importé')} sur ${w.number(total)}`,
    failed: (count) => w.count(count, { one: '# échec', many: '# d’échecs', other: '# échecs' }),
    cancelled: (count) => w.count(count, { one: '# annulé', other: '# annulés' }),
    queued: (count) => `${w.number(count)} en attente`,
    announceProgress: (tenth, done, total) => `Importation\u202f: ${w.percent(tenth)}, ${files(done, 'terminé')} sur ${w.number(total)}.`,
    announceEnded: (counts) => `${counts.join(', ')}.`,
  },
};
