import type { UploadLocale } from '../labels';
import { intlWords, isolate, type PluralForms } from './intl-words';

const w = /* @__PURE__ */ intlWords('ar');
/**
 * A number of files after a preposition or a verbal noun (من، رفع): Arabic has six plural categories, and the
 * dual is written without its number (ملفين), the one with واحد after the noun.
 */
const OF_FILES: PluralForms = { zero: '# ملف', one: 'ملف واحد', two: 'ملفين', few: '# ملفات', many: '# ملفًا', other: '# ملف' };
/** The same as the subject of a sentence: the dual in the nominative (ملفان). */
const FILES: PluralForms = { zero: '# ملف', one: 'ملف واحد', two: 'ملفان', few: '# ملفات', many: '# ملفًا', other: '# ملف' };

/**
 * Arabic (`ar`), right to left: the components' words as an Arabic app writes them («رفع الملفات»), numbers,
 * sizes and speeds in Arabic, plurals by `Intl.PluralRules` (zero, one, two, few, many, other). `dir: 'rtl'`
 * lays the components out right to left; file names are isolated (U+2068 … U+2069) so that a Latin name keeps
 * its own direction inside a sentence.
 * @example
 * <Uploader route="photos" locale={ar} />
 */
export const ar: UploadLocale = {
  locale: 'ar',
  dir: 'rtl',
  labels: {
    status: {
      queued: 'في الانتظار',
      uploading: 'جارٍ الرفع',
      paused: 'متوقف مؤقتًا',
      done: 'تم الرفع',
      error: 'فشل',
      aborted: 'أُلغي',
      elsewhere: 'جارٍ الرفع في علامة تبويب أخرى',
    },
    dropzone: 'أفلِت الملفات أو مجلدًا هنا',
    dropzoneSingle: 'أفلِت ملفًا هنا',
    dropzoneActive: 'أفلِت للرفع',
    dropzoneHint: 'أو اضغط لاختيار الملفات؛ يمكنك اللصق أيضًا',
    button: 'رفع الملفات',
    buttonUploading: (percent) => `جارٍ الرفع… ${w.percent(percent)}`,
    chooseFolder: 'اختيار مجلد',
    pause: 'إيقاف مؤقت',
    resume: 'استئناف',
    cancel: 'إلغاء',
    retry: 'إعادة المحاولة',
    remove: 'إزالة',
    cancelAll: 'إلغاء الكل',
    clear: 'مسح القائمة',
    fileAction: (action, name) => `${action} ${isolate(name)}`,
    fileProgress: (name) => `تقدّم ${isolate(name)}`,
    overallProgress: 'تقدّم كل الملفات',
    region: 'عمليات الرفع',
    list: 'الملفات',
    rejections: 'لم تُرفع',
    rejected: {
      'file-invalid-type': (name, accept) => `${isolate(name)}: هذا النوع من الملفات غير مقبول (${isolate(accept)}).`,
      'file-too-large': (name, size) => `${isolate(name)} كبير جدًا (${size}).`,
      'file-too-small': (name, size) => `${isolate(name)} صغير جدًا (${size}).`,
      'too-many-files': (name, max) => `${isolate(name)}: يمكن رفع ${w.count(max, OF_FILES)} على الأكثر في المرة الواحدة.`,
    },
    errors: {
      NETWORK_ERROR: 'انقطع الاتصال. تحقّق من الشبكة وأعد المحاولة.',
      STORAGE_ERROR: 'رفضت خدمة التخزين الملف.',
      FILE_UNREADABLE: 'لم يعد من الممكن قراءة الملف؛ اختره مرة أخرى.',
      TOO_MANY_FILES: 'عدد الملفات كبير جدًا دفعة واحدة.',
      UNAUTHORIZED: 'سجّل الدخول لرفع الملفات.',
      FORBIDDEN: 'ليس لديك إذن برفع هذا الملف.',
      FILE_TOO_LARGE: 'الملف كبير جدًا.',
      FILE_TYPE_NOT_ALLOWED: 'هذا النوع من الملفات غير مقبول.',
      RATE_LIMITED: 'طلبات كثيرة جدًا؛ أعد المحاولة بعد قليل.',
      QUOTA_EXCEEDED: 'بلغت الحد المسموح به للرفع؛ أعد المحاولة لاحقًا.',
    },
    uploadFailed: 'تعذّر الرفع.',
    percent: (percent) => w.percent(percent),
    separator: ' · ',
    // The duration as the predicate (nominative: ساعتان), as Intl writes it.
    timeLeft: (seconds) => `الوقت المتبقي: ${seconds < 1 ? 'أقل من ثانية' : `${w.duration(seconds)[0]} تقريبًا`}`,
    filesUploaded: (done, total) => `تم رفع ${w.number(done)} من ${w.count(total, OF_FILES)}`,
    failed: (count) => `تعذّر رفع ${w.count(count, OF_FILES)}`,
    cancelled: (count) => `أُلغي رفع ${w.count(count, OF_FILES)}`,
    queued: (count) => `${w.count(count, FILES)} في الانتظار`,
    announceProgress: (tenth, done, total) => `جارٍ الرفع: ${w.percent(tenth)}، اكتمل ${w.number(done)} من ${w.count(total, OF_FILES)}.`,
    announceEnded: (counts) => `${counts.join('، ')}.`,
  },
};
