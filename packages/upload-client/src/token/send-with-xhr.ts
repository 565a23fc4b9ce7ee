import { NO_ANSWER_MESSAGE } from '../errors';
import { sendRequest } from '../http-request';
import type { SendStorageRequest, StorageAnswer, TokenSession } from './token-session';

/** What the page may read of a finished `XMLHttpRequest`: for {@link TokenSession.recoverFrom} too. */
export function storageAnswerOf(xhr: XMLHttpRequest): StorageAnswer {
  return { status: xhr.status, body: xhr.responseText, headers: xhr.getAllResponseHeaders() };
}

/** The session's default transport: `XMLHttpRequest`, as every request of the browser engine. */
export const sendWithXhr: SendStorageRequest = async (request) => {
  return storageAnswerOf(await sendRequest({ ...request, body: request.body ?? null, noAnswer: NO_ANSWER_MESSAGE }));
};
