import { NO_ANSWER_MESSAGE } from '../../errors';
import { sendRequest } from '../../http-request';
import { storageAnswerOf } from '../../s3-answer';
import type { SendStorageRequest } from './token-session';

/** The session's default transport: `XMLHttpRequest`, as every request of the browser engine. */
export const sendWithXhr: SendStorageRequest = async (request) => {
  return storageAnswerOf(await sendRequest({ ...request, body: request.body ?? null, noAnswer: NO_ANSWER_MESSAGE }));
};
