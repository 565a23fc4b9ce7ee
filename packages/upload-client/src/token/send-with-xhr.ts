import { NO_ANSWER_MESSAGE } from '../errors';
import { sendRequest } from '../http-request';
import type { SendStorageRequest } from './token-session';

/** The session's default transport: `XMLHttpRequest`, as every request of the browser engine. */
export const sendWithXhr: SendStorageRequest = async (request) => {
  const { method, url, headers, body, signal } = request;
  const xhr = await sendRequest(method, url, headers, body ?? null, signal, NO_ANSWER_MESSAGE);
  return { status: xhr.status, body: xhr.responseText, headers: xhr.getAllResponseHeaders() };
};
