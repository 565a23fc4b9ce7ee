/**
 * Media types (the `filetype` a browser declares, the Content-Type storage holds), read with RFC 9110's
 * grammar (section 8.3.1) and written back in one normalized form, so that every check and what is signed
 * and stored see the same value:
 *
 * ```
 * media-type = type "/" subtype parameters
 * parameters = *( OWS ";" OWS [ parameter ] )
 * parameter  = parameter-name "=" parameter-value
 * parameter-value = ( token / quoted-string )
 * ```
 *
 * A comma is no part of this grammar outside a quoted string, and none is accepted inside one either:
 * a header value with a comma is a list to browsers (Fetch "get, decode, and split" takes the last type of
 * `image/png;x=1,text/html`), so a type that hides a second type after a comma would be checked as one type
 * and run as another.
 */

/** RFC 9110 `tchar`: the characters of a token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** RFC 9110 `quoted-string` over printable ASCII (no `obs-text`), without commas; groups the inner text. */
const QUOTED = /^"((?:[\t\x20\x21\x23-\x2b\x2d-\x5b\x5d-\x7e]|\\[\t\x20-\x7e])*)"$/;

/** A parsed media type: lower-case type and subtype, parameters in order with lower-case names. */
export interface MediaType {
  /** `type/subtype`, lower case: what rules such as `allowedContentTypes` match. */
  essence: string;
  parameters: Array<[name: string, value: string]>;
}

/**
 * Reads `text` as one RFC 9110 media type; undefined when it is not one (a list, a comma anywhere, a control
 * or non-ASCII character, a parameter without a value, ...).
 */
export function parseMediaType(text: string): MediaType | undefined {
  const [head = '', ...rest] = splitParameters(text);
  const slash = head.indexOf('/');
  const type = head.slice(0, slash);
  const subtype = head.slice(slash + 1).replace(/[\t ]+$/, '');
  if (slash < 0 || !TOKEN.test(type) || !TOKEN.test(subtype)) return undefined;
  const parameters: MediaType['parameters'] = [];
  for (const raw of rest) {
    const parameter = raw.replace(/^[\t ]+|[\t ]+$/g, '');
    if (parameter === '') continue;
    const equals = parameter.indexOf('=');
    const name = parameter.slice(0, equals);
    const value = parameter.slice(equals + 1);
    if (equals < 1 || !TOKEN.test(name)) return undefined;
    const quoted = QUOTED.exec(value);
    if (!quoted && !TOKEN.test(value)) return undefined;
    parameters.push([name.toLowerCase(), quoted ? quoted[1]!.replace(/\\(.)/g, '$1') : value]);
  }
  return { essence: `${type}/${subtype}`.toLowerCase(), parameters };
}

/**
 * `text` split at each `;` outside a quoted string. A `,` anywhere yields no parts that parse (see the
 * module comment), as does a quote left open.
 */
function splitParameters(text: string): string[] {
  if (text.includes(',')) return [];
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (quoted && character === '\\') index += 1;
    else if (character === '"') quoted = !quoted;
    else if (!quoted && character === ';') {
      parts.push(text.slice(start, index));
      start = index + 1;
    }
  }
  if (quoted) return [];
  parts.push(text.slice(start));
  return parts;
}

/**
 * The one written form of a media type: `type/subtype` in lower case, then `;name=value` for each parameter
 * (a value that is not a token in quotes), as the WHATWG MIME Sniffing standard serializes a MIME type.
 */
export function formatMediaType(type: MediaType): string {
  const parameters = type.parameters.map(([name, value]) => {
    const written = TOKEN.test(value) ? value : `"${value.replace(/["\\]/g, '\\$&')}"`;
    return `;${name}=${written}`;
  });
  return type.essence + parameters.join('');
}

/** `text` in its normalized form ({@link formatMediaType}); undefined when it is not one media type. */
export function normalizeMediaType(text: string): string | undefined {
  const type = parseMediaType(text);
  return type && formatMediaType(type);
}
