import { NO_ANSWER_MESSAGE } from '../errors';
import { sendRequest } from '../http-request';
import type { SendStorageRequest } from './token-session';

/** The session's default transport: `XMLHttpRequest`, as every request of the browser engine. */
export const sendWithXhr: SendStorageRequest = async (request) => {
  const xhr = await sendRequest({ ...request, body: request.body ?? null, noAnswer: NO_ANSWER_MESSAGE });
  return { status: xhr.status, body: xhr.responseText, headers: xhr.getAllResponseHeaders() };
};
