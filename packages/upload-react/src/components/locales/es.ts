import type { UploadLocale } from '../labels';
import { intlWords, type PluralForms } from './intl-words';

const w = /* @__PURE__ */ intlWords('es');
const files = (n: number, what = '') => w.count(n, { one: `# archivo${what}`, many: `# de archivos${what && `${what}s`}`, other: `# archivos${what && `${what}s`}` } satisfies PluralForms);

/**
 * Spanish (`es`): the components' words as a Spanish app writes them («Subir archivos»), numbers, sizes and
 * speeds in Spanish (`1,2 MB/s`), plurals by `Intl.PluralRules` (a million takes «de»).
 * @example
 * <Uploader route="photos" locale={es} />
 */
export const es: UploadLocale = {
  locale: 'es',
  dir: 'ltr',
  labels: {
    status: {
      queued: 'En espera',
      uploading: 'Subiendo',
      paused: 'En pausa',
      done: 'Subido',
      error: 'Error',
      aborted: 'Cancelado',
      elsewhere: 'Subiendo en otra pestaña',
    },
    dropzone: 'Suelta archivos o una carpeta aquí',
    dropzoneSingle: 'Suelta un archivo aquí',
    dropzoneActive: 'Suelta para subir',
    dropzoneHint: 'o pulsa para elegir archivos; también puedes pegarlos',
    button: 'Subir archivos',
    buttonUploading: (percent) => `Subiendo… ${w.percent(percent)}`,
    chooseFolder: 'Elegir una carpeta',
    pause: 'Pausar',
    resume: 'Reanudar',
    cancel: 'Cancelar',
    retry: 'Reintentar',
    remove: 'Quitar',
    cancelAll: 'Cancelar todo',
    clear: 'Vaciar la lista',
    fileAction: (action, name) => `${action} ${name}`,
    fileProgress: (name) => `Progreso de ${name}`,
    overallProgress: 'Progreso de todos los archivos',
    region: 'Subidas',
    list: 'Archivos',
    rejections: 'No subidos',
    rejected: {
      'file-invalid-type': (name, accept) => `${name}: no se acepta este tipo de archivo (${accept}).`,
      'file-too-large': (name, size) => `${name} es demasiado grande (${size}).`,
      'file-too-small': (name, size) => `${name} es demasiado pequeño (${size}).`,
      'too-many-files': (name, max) => `${name}: como máximo ${files(max)} a la vez.`,
    },
    errors: {
      NETWORK_ERROR: 'Se perdió la conexión. Revisa tu red y vuelve a intentarlo.',
      STORAGE_ERROR: 'El almacenamiento rechazó el archivo.',
      FILE_UNREADABLE: 'Ya no se puede leer el archivo: vuelve a elegirlo.',
      TOO_MANY_FILES: 'Demasiados archivos a la vez.',
      UNAUTHORIZED: 'Inicia sesión para subir archivos.',
      FORBIDDEN: 'No tienes permiso para subir este archivo.',
      FILE_TOO_LARGE: 'El archivo es demasiado grande.',
      FILE_TYPE_NOT_ALLOWED: 'No se acepta este tipo de archivo.',
      RATE_LIMITED: 'Demasiadas solicitudes: vuelve a intentarlo en un momento.',
      QUOTA_EXCEEDED: 'Se alcanzó el límite de subidas: vuelve a intentarlo más tarde.',
    },
    uploadFailed: 'No se pudo subir el archivo.',
    percent: (percent) => w.percent(percent),
    separator: ' · ',
    // «falta 1 hora», «faltan 3 minutos»: the verb agrees with the number.
    timeLeft: (seconds) => {
      if (seconds < 1) return 'falta menos de un segundo';
      const [text, singular] = w.duration(seconds);
      return `${singular ? 'falta' : 'faltan'} aproximadamente ${text}`;
    },
    filesUploaded: (done, total) => `${w.number(done)} de ${files(total, ' subido')}`,
    failed: (count) => w.count(count, { one: '# fallido', other: '# fallidos' }),
    cancelled: (count) => w.count(count, { one: '# cancelado', other: '# cancelados' }),
    queued: (count) => `${w.number(count)} en espera`,
    announceProgress: (tenth, done, total) => `Subiendo: ${w.percent(tenth)}, ${w.number(done)} de ${files(total, ' listo')}.`,
    announceEnded: (counts) => `${counts.join(', ')}.`,
  },
};
