import { describe, expect, it } from 'vitest';
import { objectUrl } from './object-url';

describe('objectUrl (SPEC 7.4)', () => {
  it('AWS: https://{bucket}.s3.{region}.amazonaws.com/{key}', () => {
    expect(objectUrl({ bucket: 'photos', key: 'next-s3-uploads/abc/cat.jpg', region: 'eu-west-1' })).toBe(
      'https://photos.s3.eu-west-1.amazonaws.com/next-s3-uploads/abc/cat.jpg',
    );
    expect(objectUrl({ bucket: 'b', key: 'k', region: 'cn-north-1' })).toBe('https://b.s3.cn-north-1.amazonaws.com.cn/k');
  });

  it('endpoint with forcePathStyle: {endpoint}/{bucket}/{key}', () => {
    expect(objectUrl({ bucket: 'b', key: 'a/b c.txt', region: 'us-east-1', endpoint: 'http://127.0.0.1:9000/', forcePathStyle: true })).toBe(
      'http://127.0.0.1:9000/b/a/b%20c.txt',
    );
  });

  it('endpoint without forcePathStyle: virtual-hosted on the endpoint host', () => {
    expect(objectUrl({ bucket: 'b', key: 'k', region: 'auto', endpoint: 'https://acct.r2.cloudflarestorage.com' })).toBe(
      'https://b.acct.r2.cloudflarestorage.com/k',
    );
  });

  it("percent-encodes each key segment as S3 does, including !'()*", () => {
    expect(objectUrl({ bucket: 'b', key: "x/it's (1)*!.txt", region: 'us-east-1' })).toBe(
      'https://b.s3.us-east-1.amazonaws.com/x/it%27s%20%281%29%2A%21.txt',
    );
  });
});
