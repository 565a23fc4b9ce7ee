import { describe, expect, it } from 'vitest';
import { isUploadError } from './errors';
import { resolveStorageSettings, resolveStsSettings } from './settings';
import { PROVIDER_PRESETS } from './providers';

const fullEnv = {
  S3_UPLOAD_KEY: 'AKID',
  S3_UPLOAD_SECRET: 'SECRET',
  S3_UPLOAD_BUCKET: 'bucket',
  S3_UPLOAD_REGION: 'eu-west-1',
};

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('resolveStorageSettings', () => {
  it('reads every setting from S3_UPLOAD_* env variables', () => {
    expect(resolveStorageSettings({}, { ...fullEnv, S3_UPLOAD_ENDPOINT: 'http://127.0.0.1:9000' })).toEqual({
      accessKeyId: 'AKID',
      secretAccessKey: 'SECRET',
      bucket: 'bucket',
      region: 'eu-west-1',
      endpoint: 'http://127.0.0.1:9000',
      forcePathStyle: false,
      objectAcl: 'private',
      checksum: undefined,
      conditionalWrites: false,
      verifiedChecksums: undefined,
    });
  });

  it('signs bucket-owner-full-control on AWS and private with an endpoint; S3_UPLOAD_OBJECT_ACL and code win', () => {
    expect(resolveStorageSettings({}, fullEnv).objectAcl).toBe('bucket-owner-full-control');
    expect(resolveStorageSettings({ endpoint: 'https://r2.example.com' }, fullEnv).objectAcl).toBe('private');
    expect(resolveStorageSettings({}, { ...fullEnv, S3_UPLOAD_OBJECT_ACL: 'private' }).objectAcl).toBe('private');
    expect(resolveStorageSettings({ objectAcl: 'none' }, fullEnv)).not.toHaveProperty('objectAcl');
    expect(() => resolveStorageSettings({}, { ...fullEnv, S3_UPLOAD_OBJECT_ACL: 'public-read' })).toThrow('objectAcl must be one of');
  });

  it('checksum: crc64nvme on AWS (no endpoint), off with an endpoint; S3_UPLOAD_CHECKSUM (an algorithm or off, any case) and code win', () => {
    expect(resolveStorageSettings({}, fullEnv).checksum).toBe('crc64nvme');
    expect(resolveStorageSettings({ endpoint: 'http://127.0.0.1:9000' }, fullEnv).checksum).toBeUndefined();
    expect(resolveStorageSettings({}, { ...fullEnv, S3_UPLOAD_CHECKSUM: 'off' }).checksum).toBeUndefined();
    expect(resolveStorageSettings({ endpoint: 'http://127.0.0.1:9000' }, { ...fullEnv, S3_UPLOAD_CHECKSUM: 'MD5' }).checksum).toBe('md5');
    expect(resolveStorageSettings({ checksum: false }, { ...fullEnv, S3_UPLOAD_CHECKSUM: 'md5' }).checksum).toBeUndefined();
    expect(resolveStorageSettings({ checksum: 'md5', endpoint: 'http://127.0.0.1:9000' }, fullEnv).checksum).toBe('md5');
    const error = thrown(() => resolveStorageSettings({}, { ...fullEnv, S3_UPLOAD_CHECKSUM: 'crc32' }));
    expect(isUploadError(error) && error.code).toBe('INVALID_SETTINGS');
    expect((error as Error).message).toBe('checksum (S3_UPLOAD_CHECKSUM) must be one of crc32c, crc64nvme, sha256, md5 or off; got "crc32".');
  });

  it('checksum: every algorithm by name in code or S3_UPLOAD_CHECKSUM; verifiedChecksums: the aws preset without endpoint, unknown with one', () => {
    for (const name of ['crc32c', 'crc64nvme', 'sha256', 'md5'] as const) {
      expect(resolveStorageSettings({ checksum: name }, fullEnv).checksum).toBe(name);
      expect(resolveStorageSettings({}, { ...fullEnv, S3_UPLOAD_CHECKSUM: ` ${name.toUpperCase()} ` }).checksum).toBe(name);
    }
    expect(resolveStorageSettings({}, { ...fullEnv, S3_UPLOAD_CHECKSUM: 'OFF' }).checksum).toBeUndefined();
    expect(resolveStorageSettings({}, fullEnv).verifiedChecksums).toEqual(PROVIDER_PRESETS.aws.checksums);
    expect(resolveStorageSettings({ endpoint: 'http://127.0.0.1:9000' }, fullEnv).verifiedChecksums).toBeUndefined();
  });

  it('conditionalWrites: the aws preset without endpoint, off with one; S3_UPLOAD_CONDITIONAL_WRITES (true | false) and code win', () => {
    expect(resolveStorageSettings({}, fullEnv).conditionalWrites).toBe(PROVIDER_PRESETS.aws.conditionalWrites);
    expect(resolveStorageSettings({ endpoint: 'http://127.0.0.1:9000' }, fullEnv).conditionalWrites).toBe(false);
    expect(resolveStorageSettings({ endpoint: 'http://127.0.0.1:9000' }, { ...fullEnv, S3_UPLOAD_CONDITIONAL_WRITES: 'TRUE' }).conditionalWrites).toBe(true);
    expect(resolveStorageSettings({}, { ...fullEnv, S3_UPLOAD_CONDITIONAL_WRITES: 'false' }).conditionalWrites).toBe(false);
    expect(resolveStorageSettings({ conditionalWrites: true, endpoint: 'http://127.0.0.1:9000' }, { ...fullEnv, S3_UPLOAD_CONDITIONAL_WRITES: 'false' }).conditionalWrites).toBe(true);
    const error = thrown(() => resolveStorageSettings({}, { ...fullEnv, S3_UPLOAD_CONDITIONAL_WRITES: 'yes' }));
    expect(isUploadError(error) && error.code).toBe('INVALID_SETTINGS');
    expect((error as Error).message).toBe('conditionalWrites (S3_UPLOAD_CONDITIONAL_WRITES) must be true or false; got "yes".');
  });

  it('reads roleArn and stsEndpoint from S3_UPLOAD_ROLE_ARN and S3_UPLOAD_STS_ENDPOINT; code wins', () => {
    const env = { S3_UPLOAD_ROLE_ARN: 'arn:aws:iam:::role/up', S3_UPLOAD_STS_ENDPOINT: 'http://127.0.0.1:7480' };
    expect(resolveStsSettings({}, env)).toEqual({ roleArn: 'arn:aws:iam:::role/up', stsEndpoint: 'http://127.0.0.1:7480' });
    expect(resolveStsSettings({ roleArn: 'arn:aws:iam:::role/code' }, env).roleArn).toBe('arn:aws:iam:::role/code');
    expect(resolveStsSettings({}, {})).toEqual({ roleArn: undefined, stsEndpoint: undefined });
  });

  it('prefers settings given in code over the environment', () => {
    const settings = resolveStorageSettings({ bucket: 'from-code', forcePathStyle: true }, fullEnv);
    expect(settings.bucket).toBe('from-code');
    expect(settings.forcePathStyle).toBe(true);
    expect(settings).not.toHaveProperty('endpoint');
  });

  it('names every missing env variable in the missing-settings error', () => {
    const error = thrown(() => resolveStorageSettings({}, { S3_UPLOAD_BUCKET: 'b' }));
    expect(isUploadError(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'MISSING_SETTINGS',
      status: 500,
      message: 'Upbeam: Missing ENVs S3_UPLOAD_KEY, S3_UPLOAD_SECRET, S3_UPLOAD_REGION',
    });
  });

  it('fires when a variable is unset in the real process.env (never reads it as the string "undefined")', () => {
    const saved = { ...process.env };
    try {
      Object.assign(process.env, fullEnv);
      delete process.env.S3_UPLOAD_SECRET;
      expect(() => resolveStorageSettings()).toThrow('Upbeam: Missing ENVs S3_UPLOAD_SECRET');
      process.env.S3_UPLOAD_SECRET = 'x';
      expect(resolveStorageSettings().secretAccessKey).toBe('x');
    } finally {
      process.env = saved;
    }
  });

  it('reads forcePathStyle from S3_UPLOAD_FORCE_PATH_STYLE (true or 1); code wins', () => {
    expect(resolveStorageSettings({}, { ...fullEnv, S3_UPLOAD_FORCE_PATH_STYLE: 'true' }).forcePathStyle).toBe(true);
    expect(resolveStorageSettings({}, { ...fullEnv, S3_UPLOAD_FORCE_PATH_STYLE: '1' }).forcePathStyle).toBe(true);
    expect(resolveStorageSettings({}, { ...fullEnv, S3_UPLOAD_FORCE_PATH_STYLE: 'no' }).forcePathStyle).toBe(false);
    expect(resolveStorageSettings({ forcePathStyle: false }, { ...fullEnv, S3_UPLOAD_FORCE_PATH_STYLE: 'true' }).forcePathStyle).toBe(false);
  });

  it('treats empty and blank values as missing', () => {
    expect(() => resolveStorageSettings({ region: '  ' }, { ...fullEnv, S3_UPLOAD_REGION: '', S3_UPLOAD_KEY: '' })).toThrow(
      'Upbeam: Missing ENVs S3_UPLOAD_KEY, S3_UPLOAD_REGION',
    );
  });
});
