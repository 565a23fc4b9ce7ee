import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { STSClient } from '@aws-sdk/client-sts';
import { nanoid } from 'nanoid';
import { providerStsEndpoint } from '../providers';
import type { StorageProvider } from '../storage-config';
import { createTokenIssuer, type TokenSettings } from '../temporary-token';
import { errorName, httpStatus, type CheckContext, type Finding } from './finding';

/** What the token check needs besides the storage settings. */
export interface TokenCheckInput {
  provider: StorageProvider | undefined;
  token: TokenSettings;
  keyPrefix: string;
  /** The app's STS client for this endpoint (`shared-services.ts`); one of the issuer's own when absent. */
  sts?: ((stsEndpoint: string | undefined) => () => Promise<Pick<STSClient, 'send'>>) | undefined;
}

/**
 * The temporary-token strategy end to end, as the handler runs it: the handler's own token issuer (STS
 * GetFederationToken, or AssumeRole with `roleArn`) mints credentials for a probe key under `keyPrefix`;
 * a 1-byte PutObject there with them must succeed, and one at another key must be refused (the session
 * policy scopes them to one key). Probe objects are deleted with the server's credentials.
 */
export async function checkTemporaryToken(context: CheckContext, input: TokenCheckInput): Promise<Finding> {
  const check = 'temporary-token';
  const { settings, s3 } = context;
  const probeKey = `${input.keyPrefix}upbeam-doctor-${nanoid(10)}.txt`;
  const outsideKey = `${probeKey}.outside`;
  let credentials;
  try {
    const stsEndpoint = providerStsEndpoint(input.provider, input.token, settings.endpoint);
    // Other roles a token could assume are the sts-roles check's: the issuer's own check of them is left out.
    credentials = await createTokenIssuer(settings, { ...input.token, stsEndpoint }, { otherRoles: false }, input.sts?.(stsEndpoint))(probeKey);
  } catch (error) {
    return {
      check,
      status: 'fail',
      message: `STS refused the upload token (${httpStatus(error) ?? 'no status'} ${errorName(error)}: ${(error as Error).message || 'no message'}). ${
        input.token.roleArn === undefined
          ? 'Without roleArn the server calls GetFederationToken (AWS only; needs sts:GetFederationToken).'
          : `Check that the server's user may sts:AssumeRole ${input.token.roleArn} (its trust policy) and the STS endpoint.`
      }`,
    };
  }
  const scoped = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: credentials.AccessKeyId, secretAccessKey: credentials.SecretAccessKey, sessionToken: credentials.SessionToken },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  // What was stored, by version: on a versioned bucket a DeleteObject without one leaves the probe behind a marker.
  const written: { Key: string; VersionId: string | undefined }[] = [];
  const put = async (Key: string) => {
    const { VersionId } = await scoped.send(new PutObjectCommand({ Bucket: settings.bucket, Key, Body: 'u', ContentType: 'text/plain' }));
    written.push({ Key, VersionId });
  };
  try {
    try {
      await put(probeKey);
    } catch (error) {
      return {
        check,
        status: 'fail',
        message: `STS issued a token, but storage refused its PutObject on its own key (${httpStatus(error) ?? ''} ${errorName(error)}): the role's policy must allow s3:PutObject on arn:aws:s3:::${settings.bucket}/*.`,
      };
    }
    const outsideWritten = await put(outsideKey).then(
      () => true,
      () => false,
    );
    if (outsideWritten) {
      return {
        check,
        status: 'fail',
        message: 'The upload token could write a key it was not issued for: storage does not apply the STS session policy, so a browser could overwrite any object.',
      };
    }
    return { check, status: 'ok', message: `STS token wrote its own key and was refused another (${input.token.roleArn === undefined ? 'GetFederationToken' : 'AssumeRole'}).` };
  } finally {
    scoped.destroy();
    await Promise.allSettled(written.map(({ Key, VersionId }) => s3.send(new DeleteObjectCommand({ Bucket: settings.bucket, Key, VersionId }))));
  }
}
