import { describe, expect, it } from 'vitest';
import { createUploadHandler } from './handler';
import { isUploadError } from './errors';
import { defaultChecksum, PROVIDER_PRESETS, providerStsEndpoint } from './providers';
import { resolveStorageSettings } from './settings';

const keys = { S3_UPLOAD_KEY: 'AKID', S3_UPLOAD_SECRET: 'SECRET', S3_UPLOAD_BUCKET: 'uploads' };

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('provider presets in resolveStorageSettings', () => {
  it('r2: account endpoint, region auto, virtual-hosted', () => {
    const settings = resolveStorageSettings({ provider: 'r2', accountId: 'abc123' }, keys);
    expect(settings).toMatchObject({ endpoint: 'https://abc123.r2.cloudflarestorage.com', region: 'auto', forcePathStyle: false });
  });

  it('reads provider and account id from S3_UPLOAD_PROVIDER and S3_UPLOAD_ACCOUNT_ID', () => {
    const settings = resolveStorageSettings({}, { ...keys, S3_UPLOAD_PROVIDER: 'R2', S3_UPLOAD_ACCOUNT_ID: 'acc' });
    expect(settings.endpoint).toBe('https://acc.r2.cloudflarestorage.com');
  });

  it.each([
    ['b2', 'us-west-004', 'https://s3.us-west-004.backblazeb2.com'],
    ['digitalocean', 'fra1', 'https://fra1.digitaloceanspaces.com'],
    ['wasabi', 'eu-central-1', 'https://s3.eu-central-1.wasabisys.com'],
  ] as const)('%s: the region goes into the endpoint', (provider, region, endpoint) => {
    expect(resolveStorageSettings({ provider, region }, keys)).toMatchObject({ endpoint, region, forcePathStyle: false });
  });

  it('aws: no endpoint', () => {
    const settings = resolveStorageSettings({ provider: 'aws', region: 'eu-west-1' }, keys);
    expect(settings).not.toHaveProperty('endpoint');
    expect(settings.forcePathStyle).toBe(false);
  });

  it.each(['minio', 'ceph'] as const)('%s: the given endpoint, path style', (provider) => {
    const settings = resolveStorageSettings({ provider }, { ...keys, S3_UPLOAD_REGION: 'us-east-1', S3_UPLOAD_ENDPOINT: 'http://127.0.0.1:9000' });
    expect(settings).toMatchObject({ endpoint: 'http://127.0.0.1:9000', forcePathStyle: true });
  });

  it('settings in code and env variables win over the preset', () => {
    const settings = resolveStorageSettings(
      { provider: 'r2', accountId: 'acc', forcePathStyle: true },
      { ...keys, S3_UPLOAD_REGION: 'us-east-1', S3_UPLOAD_ENDPOINT: 'https://eu.r2.example' },
    );
    expect(settings).toMatchObject({ endpoint: 'https://eu.r2.example', region: 'us-east-1', forcePathStyle: true });
  });

  it.each([
    ['aws', {}, 'crc64nvme', true],
    ['r2', { accountId: 'acc' }, 'crc64nvme', true],
    ['b2', { region: 'us-west-004' }, undefined, false],
    ['digitalocean', { region: 'fra1' }, undefined, false],
    ['wasabi', { region: 'eu-central-1' }, 'md5', false],
    ['minio', { endpoint: 'http://127.0.0.1:9000' }, 'crc64nvme', true],
    ['ceph', { endpoint: 'http://127.0.0.1:7480' }, 'md5', true],
  ] as const)('%s: checksum %s and conditional writes %s by default; verifiedChecksums the preset\'s', (provider, given, checksum, conditionalWrites) => {
    const settings = resolveStorageSettings({ provider, ...given }, { ...keys, S3_UPLOAD_REGION: 'us-east-1' });
    expect(settings.checksum).toBe(checksum);
    expect(settings.conditionalWrites).toBe(conditionalWrites);
    expect(settings.verifiedChecksums).toBe(PROVIDER_PRESETS[provider].checksums);
  });

  it("every preset's checksum is the strongest cheap one it verifies (crc64nvme, crc32c, md5, none), never sha256", () => {
    for (const preset of Object.values(PROVIDER_PRESETS)) {
      expect(preset.checksum).toBe(defaultChecksum(preset.checksums));
      if (preset.checksum !== false) expect(preset.checksums).toContain(preset.checksum);
    }
    expect(defaultChecksum(['sha256'])).toBe(false);
    expect(defaultChecksum(['md5', 'crc32c'])).toBe('crc32c');
  });

  it('conditionalWrites in code or S3_UPLOAD_CONDITIONAL_WRITES wins over the preset', () => {
    const ceph = { provider: 'ceph', endpoint: 'http://127.0.0.1:7480', region: 'us-east-1' } as const;
    expect(resolveStorageSettings({ ...ceph, conditionalWrites: false }, keys).conditionalWrites).toBe(false);
    expect(resolveStorageSettings(ceph, { ...keys, S3_UPLOAD_CONDITIONAL_WRITES: 'false' }).conditionalWrites).toBe(false);
    expect(resolveStorageSettings({ provider: 'b2', region: 'us-west-004' }, { ...keys, S3_UPLOAD_CONDITIONAL_WRITES: 'true' }).conditionalWrites).toBe(true);
  });

  it('checksum in code or S3_UPLOAD_CHECKSUM wins over the preset', () => {
    const ceph = { provider: 'ceph', endpoint: 'http://127.0.0.1:7480', region: 'us-east-1' } as const;
    expect(resolveStorageSettings({ ...ceph, checksum: false }, keys).checksum).toBeUndefined();
    expect(resolveStorageSettings(ceph, { ...keys, S3_UPLOAD_CHECKSUM: 'off' }).checksum).toBeUndefined();
    expect(resolveStorageSettings({ provider: 'b2', region: 'us-west-004' }, { ...keys, S3_UPLOAD_CHECKSUM: 'md5' }).checksum).toBe('md5');
  });

  it.each([
    [{ provider: 'r2' }, 'needs your account id (accountId, S3_UPLOAD_ACCOUNT_ID)'],
    [{ provider: 'b2' }, 'needs a region (S3_UPLOAD_REGION)'],
    [{ provider: 'minio', region: 'us-east-1' }, 'is self-hosted: set its endpoint (S3_UPLOAD_ENDPOINT)'],
    [{ provider: 'gcs' }, 'Unknown storage provider "gcs": use one of aws, r2, b2, digitalocean, wasabi, minio, ceph.'],
  ])('%o: INVALID_SETTINGS naming what is missing', (settings, message) => {
    const error = thrown(() => resolveStorageSettings(settings as never, keys));
    expect(isUploadError(error) && error.code).toBe('INVALID_SETTINGS');
    expect((error as Error).message).toContain(message);
  });
});

describe('providerStsEndpoint', () => {
  it('refuses the temporary-token strategy on r2 (no STS)', () => {
    const error = thrown(() => providerStsEndpoint('r2', { roleArn: 'arn:x' }, undefined));
    expect(isUploadError(error) && error.code).toBe('INVALID_SETTINGS');
    expect((error as Error).message).toBe(
      'Provider "r2" has no STS endpoint, so the temporary-token strategy cannot work there: use the presigned strategy (multipart included).',
    );
  });

  it('requires roleArn where STS has AssumeRole only', () => {
    expect(() => providerStsEndpoint('ceph', {}, 'http://127.0.0.1:8000')).toThrow('set roleArn (S3_UPLOAD_ROLE_ARN)');
  });

  it('fills the STS endpoint: storage itself for minio/ceph, sts.wasabisys.com for wasabi, the SDK default for aws', () => {
    expect(providerStsEndpoint('minio', { roleArn: 'arn:r' }, 'http://127.0.0.1:9000')).toBe('http://127.0.0.1:9000');
    expect(providerStsEndpoint('wasabi', { roleArn: 'arn:r' }, 'https://s3.eu-central-1.wasabisys.com')).toBe('https://sts.wasabisys.com');
    expect(providerStsEndpoint('aws', {}, undefined)).toBeUndefined();
    expect(providerStsEndpoint('ceph', { roleArn: 'arn:r', stsEndpoint: 'http://sts' }, 'http://s3')).toBe('http://sts');
  });

  it('needs an explicit STS endpoint on b2 and digitalocean', () => {
    expect(() => providerStsEndpoint('b2', { roleArn: 'arn:r' }, undefined)).toThrow('set stsEndpoint (S3_UPLOAD_STS_ENDPOINT)');
  });

  it('the handler answers the first temporary-token request on r2 with 500 and logs the reason', async () => {
    const logged: unknown[] = [];
    const handler = createUploadHandler({
      provider: 'r2',
      accountId: 'acc',
      accessKeyId: 'AKID',
      secretAccessKey: 'SECRET',
      bucket: 'uploads',
      onError: (error) => logged.push(error),
    });
    const response = await handler(
      new Request('http://app.test/api/s3-upload', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ filename: 'a.txt', filetype: 'text/plain', _upload: { strategy: 'temporary-token' } }),
      }),
    );
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'Internal Server Error' });
    expect(String(logged[0])).toContain('Provider "r2" has no STS endpoint');
  });
});
