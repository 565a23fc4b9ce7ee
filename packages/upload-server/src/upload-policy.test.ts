import { describe, expect, it } from 'vitest';
import { checkUploadPolicy, defaultContentDisposition } from './upload-policy';

describe('checkUploadPolicy', () => {
  it.each([
    [['image/*'], 'image/png'],
    [['image/*'], 'IMAGE/JPEG'],
    [['application/pdf'], 'application/pdf; charset=binary'],
    [['*/*'], 'video/mp4'],
    [['text/plain', 'image/*'], 'text/plain'],
  ])('allowedContentTypes %j lets %j through', (allowedContentTypes, filetype) => {
    expect(() => checkUploadPolicy({ allowedContentTypes }, { filetype })).not.toThrow();
  });

  it.each([
    [['image/*'], 'text/html'],
    [['image/*'], 'imagex/png'],
    [['image/png'], 'image/svg+xml'],
    [[], 'image/png'],
  ])('allowedContentTypes %j refuses %j with 400 FILE_TYPE_NOT_ALLOWED', (allowedContentTypes, filetype) => {
    expect(() => checkUploadPolicy({ allowedContentTypes }, { filetype })).toThrow(
      expect.objectContaining({ code: 'FILE_TYPE_NOT_ALLOWED', status: 400 }),
    );
  });

  it('maxFileSize: needs filesize, refuses larger files with 413, accepts the limit itself', () => {
    const policy = { maxFileSize: 1000 };
    expect(() => checkUploadPolicy(policy, { filetype: 'a/b' })).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
    expect(() => checkUploadPolicy(policy, { filetype: 'a/b', filesize: 1001 })).toThrow(
      expect.objectContaining({ code: 'FILE_TOO_LARGE', status: 413, message: 'File is 1001 bytes; the largest accepted is 1000 bytes.' }),
    );
    expect(() => checkUploadPolicy(policy, { filetype: 'a/b', filesize: 1000 })).not.toThrow();
  });
});

describe('defaultContentDisposition', () => {
  it.each(['text/html', 'Text/HTML; charset=utf-8', 'image/svg+xml', 'application/xhtml+xml', 'text/xml', 'application/javascript'])(
    '%s is stored as an attachment (no stored XSS from the bucket origin)',
    (type) => expect(defaultContentDisposition(type)).toBe('attachment'),
  );

  it.each(['image/png', 'application/pdf', 'video/mp4', 'text/plain'])('%s keeps no disposition', (type) => {
    expect(defaultContentDisposition(type)).toBeUndefined();
  });
});
