import { describe, expect, it } from 'vitest';
import { normalizeMediaType, parseMediaType } from './media-type';

describe('media types (RFC 9110 grammar, one normalized form)', () => {
  it.each([
    ['image/png', 'image/png'],
    ['Image/PNG', 'image/png'],
    ['text/plain; charset=UTF-8', 'text/plain;charset=UTF-8'],
    ['text/plain ;Charset=utf-8 ; format=flowed', 'text/plain;charset=utf-8;format=flowed'],
    ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['image/png; name="my photo.png"', 'image/png;name="my photo.png"'],
    ['image/png; a="b\\"c"', 'image/png;a="b\\"c"'],
    ['image/png;', 'image/png'],
  ])('reads %j as %j', (text, normalized) => {
    expect(normalizeMediaType(text)).toBe(normalized);
  });

  it.each([
    ['a list (the last type is what browsers take)', 'image/png;x=1,text/html'],
    ['a list after a quoted parameter', 'image/png; a="b",image/svg+xml'],
    ['a comma inside a quoted value', 'image/png; a="b,text/html"'],
    ['a plain list', 'image/png, text/html'],
    ['no subtype', 'image'],
    ['an empty subtype', 'image/'],
    ['a space inside the type', 'image /png'],
    ['a parameter without a value', 'image/png; charset'],
    ['a parameter without a name', 'image/png; =x'],
    ['an open quote', 'image/png; a="b'],
    ['a line break', 'image/png\r\nx-amz-acl: public-read'],
    ['a control character', 'image/png;a=\u0001'],
    ['non-ASCII', 'image/pñg'],
    ['two slashes', 'image/png/x'],
  ])('refuses %s: %j', (_, text) => {
    expect(parseMediaType(text)).toBeUndefined();
  });

  it('keeps the parameters in order with lower-case names', () => {
    expect(parseMediaType('Text/HTML; Charset="utf-8"; q=1')).toEqual({
      essence: 'text/html',
      parameters: [
        ['charset', 'utf-8'],
        ['q', '1'],
      ],
    });
  });
});
