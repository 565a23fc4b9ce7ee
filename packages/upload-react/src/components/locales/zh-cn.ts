import type { UploadLocale } from '../labels';
import { intlWords } from './intl-words';

const w = /* @__PURE__ */ intlWords('zh-CN', 'unit');

/**
 * Simplified Chinese (`zh-CN`): the components' words as a Chinese app writes them（“上传文件”）, numbers,
 * sizes and speeds in Chinese, files counted with 个 (Chinese has no plural forms: `Intl.PluralRules` gives
 * `other` for every number).
 * @example
 * <Uploader route="photos" locale={zhCN} />
 */
export const zhCN: UploadLocale = {
  locale: 'zh-CN',
  dir: 'ltr',
  labels: {
    status: {
      queued: '等待中',
      uploading: '上传中',
      paused: '已暂停',
      done: '已上传',
      error: '失败',
      aborted: '已取消',
      elsewhere: '正在其他标签页中上传',
    },
    dropzone: '将文件或文件夹拖放到此处',
    dropzoneSingle: '将文件拖放到此处',
    dropzoneActive: '松开即可上传',
    dropzoneHint: '或点击选择文件，也可以直接粘贴',
    button: '上传文件',
    buttonUploading: (percent) => `上传中… ${w.percent(percent)}`,
    chooseFolder: '选择文件夹',
    pause: '暂停',
    resume: '继续',
    cancel: '取消',
    retry: '重试',
    remove: '移除',
    cancelAll: '全部取消',
    clear: '清空列表',
    fileAction: (action, name) => `${action} ${name}`,
    fileProgress: (name) => `${name} 的上传进度`,
    overallProgress: '全部文件的上传进度',
    region: '上传',
    list: '文件',
    rejections: '未上传',
    rejected: {
      'file-invalid-type': (name, accept) => `${name}：不接受此类型的文件（${accept}）。`,
      'file-too-large': (name, size) => `${name} 太大了（${size}）。`,
      'file-too-small': (name, size) => `${name} 太小了（${size}）。`,
      'too-many-files': (name, max) => `${name}：一次最多上传 ${w.number(max)} 个文件。`,
    },
    errors: {
      NETWORK_ERROR: '连接已中断。请检查网络后重试。',
      STORAGE_ERROR: '存储服务拒绝了该文件。',
      FILE_UNREADABLE: '无法再读取该文件，请重新选择。',
      TOO_MANY_FILES: '一次选择的文件过多。',
      UNAUTHORIZED: '请先登录再上传文件。',
      FORBIDDEN: '你没有上传此文件的权限。',
      FILE_TOO_LARGE: '文件太大了。',
      FILE_TYPE_NOT_ALLOWED: '不接受此类型的文件。',
      RATE_LIMITED: '请求过于频繁，请稍后重试。',
      QUOTA_EXCEEDED: '已达到上传限额，请稍后再试。',
    },
    uploadFailed: '上传失败。',
    percent: (percent) => w.percent(percent),
    separator: ' · ',
    timeLeft: (seconds) => (seconds < 1 ? '剩余不到 1 秒' : `剩余约 ${w.duration(seconds)[0]}`),
    filesUploaded: (done, total) => `已上传 ${w.number(done)}/${w.number(total)} 个文件`,
    failed: (count) => `${w.number(count)} 个失败`,
    cancelled: (count) => `${w.number(count)} 个已取消`,
    queued: (count) => `${w.number(count)} 个等待中`,
    announceProgress: (tenth, done, total) => `上传中：${w.percent(tenth)}，已完成 ${w.number(done)}/${w.number(total)} 个文件。`,
    announceEnded: (counts) => `${counts.join('，')}。`,
  },
};
