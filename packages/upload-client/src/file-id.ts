import { urlAlphabet } from 'nanoid';

/** Characters of an id: nanoid's default, 126 bits of randomness in 21 URL-safe characters. */
const ID_LENGTH = 21;
/** Ids drawn from one `crypto.getRandomValues` call. */
const IDS_A_DRAW = 128;

let pool = new Uint8Array(0);
let used = 0;

/**
 * A new tracked file's id: 21 characters of nanoid's URL-safe alphabet (`A-Za-z0-9_-`), each from one random
 * byte, as `nanoid()` makes them. The bytes come from a pool refilled by one `crypto.getRandomValues` call for
 * 128 ids, as nanoid's Node build does; its browser build calls `getRandomValues` for every id, and adding
 * 5,000 files in one call spent a third of that task there (chromium; bench/notes/lists-at-scale.md). Each
 * byte is used once.
 */
export function newFileId(): string {
  if (used + ID_LENGTH > pool.length) {
    pool = crypto.getRandomValues(new Uint8Array(ID_LENGTH * IDS_A_DRAW));
    used = 0;
  }
  let id = '';
  for (let i = used; i < used + ID_LENGTH; i++) id += urlAlphabet[pool[i]! & 63];
  used += ID_LENGTH;
  return id;
}
