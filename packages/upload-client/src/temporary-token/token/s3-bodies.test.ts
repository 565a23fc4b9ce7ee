import { describe, expect, it } from 'vitest';
import { xmlElements, xmlValue } from '../../s3-answer';
import { s3Checksum } from './checksum-s3';
import { completeMultipartBody, escapeXml, taggingBody } from './s3-bodies';

describe('S3 request bodies', () => {
  it('CompleteMultipartUpload lists the parts in ascending number, ETags quoted and escaped', () => {
    const body = completeMultipartBody([
      { partNumber: 2, etag: '"b"' },
      { partNumber: 1, etag: '"a"' },
    ]);
    expect(body).toBe(
      '<CompleteMultipartUpload xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
        '<Part><PartNumber>1</PartNumber><ETag>&quot;a&quot;</ETag></Part>' +
        '<Part><PartNumber>2</PartNumber><ETag>&quot;b&quot;</ETag></Part>' +
        '</CompleteMultipartUpload>',
    );
    expect(xmlElements(body, 'Part').map((part) => xmlValue(part, 'ETag'))).toEqual(['"a"', '"b"']);
  });

  it('CompleteMultipartUpload lists each part\'s checksum under its algorithm\'s element; none for md5', () => {
    const parts = [{ partNumber: 1, etag: '"a"', checksum: 'yZRlqg==' }];
    expect(completeMultipartBody(parts, s3Checksum('crc32c').element)).toContain('<ETag>&quot;a&quot;</ETag><ChecksumCRC32C>yZRlqg==</ChecksumCRC32C></Part>');
    expect(completeMultipartBody(parts, s3Checksum('sha256').element)).toContain('<ChecksumSHA256>yZRlqg==</ChecksumSHA256>');
    expect(completeMultipartBody(parts)).not.toContain('Checksum');
  });

  it('PutObjectTagging escapes keys and values', () => {
    expect(escapeXml(`<a & 'b' "c">`)).toBe('&lt;a &amp; &apos;b&apos; &quot;c&quot;&gt;');
    const body = taggingBody([{ Key: 'team', Value: 'R&D <core>' }]);
    expect(body).toContain('<TagSet><Tag><Key>team</Key><Value>R&amp;D &lt;core&gt;</Value></Tag></TagSet>');
    expect(xmlValue(body, 'Value')).toBe('R&D <core>');
  });
});

describe('reading S3 XML answers', () => {
  const listParts = `<?xml version="1.0" encoding="UTF-8"?>
<ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <Bucket>b</Bucket><Key>k</Key><UploadId>2~abc</UploadId>
  <PartNumberMarker>0</PartNumberMarker><NextPartNumberMarker>2</NextPartNumberMarker><IsTruncated>true</IsTruncated>
  <Part><PartNumber>1</PartNumber><LastModified>2026-11-23T07:00:00.000Z</LastModified><ETag>&quot;e1&quot;</ETag><Size>5242880</Size></Part>
  <Part>
    <PartNumber>2</PartNumber><ETag>"e2"</ETag><Size>7</Size>
  </Part>
</ListPartsResult>`;

  it('decodes entities and character references in values', () => {
    expect(xmlValue(listParts, 'UploadId')).toBe('2~abc');
    expect(xmlValue('<ETag>&#34;x&#x22;</ETag>', 'ETag')).toBe('"x"');
    expect(xmlValue('<Key>a&amp;lt;b</Key>', 'Key')).toBe('a&lt;b');
    expect(xmlValue('<ETag></ETag>', 'ETag')).toBeUndefined();
  });

  it('splits repeated elements, spread over lines or not', () => {
    const parts = xmlElements(listParts, 'Part');
    expect(parts).toHaveLength(2);
    expect(parts.map((part) => [xmlValue(part, 'PartNumber'), xmlValue(part, 'ETag'), xmlValue(part, 'Size')])).toEqual([
      ['1', '"e1"', '5242880'],
      ['2', '"e2"', '7'],
    ]);
    expect(xmlElements('<Error/>', 'Part')).toEqual([]);
  });
});
