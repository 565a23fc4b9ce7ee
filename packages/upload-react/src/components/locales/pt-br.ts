import type { UploadLocale } from '../labels';
import { intlWords } from './intl-words';

const w = /* @__PURE__ */ intlWords('pt-BR');
const files = (n: number, what = '') => w.count(n, { one: `# arquivo${what}`, many: `# de arquivos${what && `${what}s`}`, other: `# arquivos${what && `${what}s`}` });

/**
 * Portuguese as written in Brazil (`pt-BR`): the components' words as a Brazilian app writes them („Enviar
 * arquivos“), numbers, sizes and speeds in Brazilian Portuguese (`1,2 MB/s`), plurals by `Intl.PluralRules`
 * (0 and 1 are singular; a million takes “de”).
 * @example
 * <Uploader route="photos" locale={ptBR} />
 */
export const ptBR: UploadLocale = {
  locale: 'pt-BR',
  dir: 'ltr',
  labels: {
    status: {
      queued: 'Na fila',
      uploading: 'Enviando',
      paused: 'Pausado',
      done: 'Enviado',
      error: 'Falhou',
      aborted: 'Cancelado',
      elsewhere: 'Enviando em outra aba',
    },
    dropzone: 'Solte arquivos ou uma pasta aqui',
    dropzoneSingle: 'Solte um arquivo aqui',
    dropzoneActive: 'Solte para enviar',
    dropzoneHint: 'ou clique para escolher arquivos; você também pode colar',
    button: 'Enviar arquivos',
    buttonUploading: (percent) => `Enviando… ${w.percent(percent)}`,
    chooseFolder: 'Escolher uma pasta',
    pause: 'Pausar',
    resume: 'Retomar',
    cancel: 'Cancelar',
    retry: 'Tentar novamente',
    remove: 'Remover',
    cancelAll: 'Cancelar tudo',
    clear: 'Limpar lista',
    fileAction: (action, name) => `${action} ${name}`,
    fileProgress: (name) => `Progresso de ${name}`,
    overallProgress: 'Progresso de todos os arquivos',
    region: 'Envios',
    list: 'Arquivos',
    rejections: 'Não enviados',
    rejected: {
      'file-invalid-type': (name, accept) => `${name}: este tipo de arquivo não é aceito (${accept}).`,
      'file-too-large': (name, size) => `${name} é grande demais (${size}).`,
      'file-too-small': (name, size) => `${name} é pequeno demais (${size}).`,
      'too-many-files': (name, max) => `${name}: no máximo ${files(max)} por vez.`,
    },
    errors: {
      NETWORK_ERROR: 'A conexão caiu. Verifique sua rede e tente novamente.',
      STORAGE_ERROR: 'O armazenamento recusou o arquivo.',
      FILE_UNREADABLE: 'Não é mais possível ler o arquivo: escolha-o novamente.',
      TOO_MANY_FILES: 'Arquivos demais de uma vez.',
      UNAUTHORIZED: 'Entre na sua conta para enviar arquivos.',
      FORBIDDEN: 'Você não tem permissão para enviar este arquivo.',
      FILE_TOO_LARGE: 'O arquivo é grande demais.',
      FILE_TYPE_NOT_ALLOWED: 'Este tipo de arquivo não é aceito.',
      RATE_LIMITED: 'Muitas solicitações: tente novamente em instantes.',
      QUOTA_EXCEEDED: 'Limite de envios atingido: tente novamente mais tarde.',
    },
    uploadFailed: 'O envio falhou.',
    percent: (percent) => w.percent(percent),
    separator: ' · ',
    // “falta 1 hora”, “faltam 3 minutos”: the verb agrees with the number.
    timeLeft: (seconds) => {
      if (seconds < 1) return 'falta menos de um segundo';
      const [text, singular] = w.duration(seconds);
      return `${singular ? 'falta' : 'faltam'} cerca de ${text}`;
    },
    filesUploaded: (done, total) => `${w.number(done)} de ${files(total, ' enviado')}`,
    failed: (count) => w.count(count, { one: '# falhou', other: '# falharam' }),
    cancelled: (count) => w.count(count, { one: '# cancelado', other: '# cancelados' }),
    queued: (count) => `${w.number(count)} na fila`,
    announceProgress: (tenth, done, total) => `Enviando: ${w.percent(tenth)}, ${w.number(done)} de ${files(total, ' concluído')}.`,
    announceEnded: (counts) => `${counts.join(', ')}.`,
  },
};
