import type { UploadLocale } from '../labels';
import { intlWords } from './intl-words';

const w = /* @__PURE__ */ intlWords('ja', 'unit');

/**
 * Japanese (`ja`): the components' words as a Japanese app writes them（「ファイルをアップロード」）, numbers,
 * sizes and speeds in Japanese, files counted with 件 (Japanese has no plural forms: `Intl.PluralRules` gives
 * `other` for every number).
 * @example
 * <Uploader route="photos" locale={ja} />
 */
export const ja: UploadLocale = {
  locale: 'ja',
  dir: 'ltr',
  labels: {
    status: {
      queued: '待機中',
      uploading: 'アップロード中',
      paused: '一時停止中',
      done: 'アップロード完了',
      error: '失敗',
      aborted: 'キャンセル済み',
      elsewhere: '別のタブでアップロード中',
    },
    dropzone: 'ここにファイルまたはフォルダをドロップ',
    dropzoneSingle: 'ここにファイルをドロップ',
    dropzoneActive: 'ドロップしてアップロード',
    dropzoneHint: 'またはクリックしてファイルを選択（貼り付けもできます）',
    button: 'ファイルをアップロード',
    buttonUploading: (percent) => `アップロード中… ${w.percent(percent)}`,
    chooseFolder: 'フォルダを選択',
    pause: '一時停止',
    resume: '再開',
    cancel: 'キャンセル',
    retry: '再試行',
    remove: '削除',
    cancelAll: 'すべてキャンセル',
    clear: 'リストをクリア',
    // 「harbour.png を一時停止」: the object first, then the verb.
    fileAction: (action, name) => `${name} を${action}`,
    fileProgress: (name) => `${name} の進行状況`,
    overallProgress: 'すべてのファイルの進行状況',
    region: 'アップロード',
    list: 'ファイル',
    rejections: 'アップロードされなかったファイル',
    rejected: {
      'file-invalid-type': (name, accept) => `${name}: この種類のファイルは受け付けていません（${accept}）。`,
      'file-too-large': (name, size) => `${name} は大きすぎます（${size}）。`,
      'file-too-small': (name, size) => `${name} は小さすぎます（${size}）。`,
      'too-many-files': (name, max) => `${name}: 一度にアップロードできるのは ${w.number(max)} 件までです。`,
    },
    errors: {
      NETWORK_ERROR: '接続が切れました。ネットワークを確認して、もう一度お試しください。',
      STORAGE_ERROR: 'ストレージがファイルを拒否しました。',
      FILE_UNREADABLE: 'ファイルを読み込めなくなりました。もう一度選択してください。',
      TOO_MANY_FILES: '一度に選択できるファイルの数を超えています。',
      UNAUTHORIZED: 'ファイルをアップロードするにはログインしてください。',
      FORBIDDEN: 'このファイルをアップロードする権限がありません。',
      FILE_TOO_LARGE: 'ファイルが大きすぎます。',
      FILE_TYPE_NOT_ALLOWED: 'この種類のファイルは受け付けていません。',
      RATE_LIMITED: 'リクエストが多すぎます。しばらくしてからもう一度お試しください。',
      QUOTA_EXCEEDED: 'アップロードの上限に達しました。後でもう一度お試しください。',
    },
    uploadFailed: 'アップロードに失敗しました。',
    percent: (percent) => w.percent(percent),
    separator: ' · ',
    timeLeft: (seconds) => (seconds < 1 ? '残り 1 秒未満' : `残り約 ${w.duration(seconds)[0]}`),
    filesUploaded: (done, total) => `${w.number(total)} 件中 ${w.number(done)} 件をアップロード済み`,
    failed: (count) => `${w.number(count)} 件失敗`,
    cancelled: (count) => `${w.number(count)} 件キャンセル`,
    queued: (count) => `${w.number(count)} 件待機中`,
    announceProgress: (tenth, done, total) => `アップロード中: ${w.percent(tenth)}、${w.number(total)} 件中 ${w.number(done)} 件完了。`,
    announceEnded: (counts) => `${counts.join('、')}。`,
  },
};
