import type { S3Client } from '@aws-sdk/client-s3';
import type { STSClient } from '@aws-sdk/client-sts';
import { lazily } from './lazily';
import { createUrlSigner, type StorageClientSource, type UrlSigner } from './presign';
import type { Env } from './env';
import { processEnv, resolveStorageSettings, type ResolvedStorageSettings } from './settings';
import type { StorageSettings } from './storage-config';
import { createStorageClient } from './storage-client';
import { createStsClient } from './temporary-token';

/** The S3 client and URL signer of one bucket with one set of connection settings. */
export interface SharedStorage {
  /** The S3 client, built on first use (`@aws-sdk/client-s3` is imported then); a failed build is tried again. */
  client: StorageClientSource;
  /** Signs URLs of the bucket's objects (`createUrlSigner`); undefined for an access-point ARN bucket. */
  sign: UrlSigner | undefined;
}

/**
 * What every route of an app shares: one S3 client and one URL signer per distinct storage connection
 * (credentials, region, endpoint, path style, bucket: a route overrides none of them, so one for the app),
 * and one STS client per distinct STS connection. Each is built on first use.
 */
export interface SharedServices {
  /**
   * The storage settings of `config` (a route's over the shared ones), each missing one read from `config.env`,
   * else `process.env`: the one place they are resolved.
   * @throws `MISSING_SETTINGS` / `INVALID_SETTINGS` (`resolveStorageSettings`)
   */
  settings(config: StorageSettings & { env?: Env | undefined }): ResolvedStorageSettings;
  /** The storage of these settings (only their connection fields are read: a route's `objectAcl` or `checksum` is not). */
  storage(settings: ResolvedStorageSettings): SharedStorage;
  /** The STS client for these settings at `stsEndpoint`, built on first use. */
  sts(settings: ResolvedStorageSettings, stsEndpoint: string | undefined): () => Promise<Pick<STSClient, 'send'>>;
  /** Destroys the S3 clients built so far (their sockets), for a run that ends (reconcile, storage events, the doctor). */
  destroy(): void;
}

export function createSharedServices(): SharedServices {
  const storages = new Map<string, SharedStorage>();
  const stsClients = new Map<string, () => Promise<Pick<STSClient, 'send'>>>();
  const built: S3Client[] = [];
  return {
    settings: (config) => resolveStorageSettings(config, config.env ?? processEnv()),
    storage(settings) {
      const id = JSON.stringify([settings.accessKeyId, settings.secretAccessKey, settings.region, settings.endpoint ?? null, settings.forcePathStyle, settings.bucket]);
      let storage = storages.get(id);
      if (!storage) {
        const client = lazily(async () => {
          const s3 = await createStorageClient(settings);
          built.push(s3);
          return s3;
        });
        storages.set(id, (storage = { client, sign: createUrlSigner(settings, client) }));
      }
      return storage;
    },
    sts(settings, stsEndpoint) {
      const id = JSON.stringify([settings.accessKeyId, settings.secretAccessKey, settings.region, stsEndpoint ?? null]);
      let sts = stsClients.get(id);
      if (!sts) stsClients.set(id, (sts = lazily(() => createStsClient(settings, stsEndpoint))));
      return sts;
    },
    destroy() {
      for (const s3 of built.splice(0)) s3.destroy();
    },
  };
}
