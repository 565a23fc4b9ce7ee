import { handlerScope } from './hmac';
import { createMultipartStorage } from './multipart-storage';
import { createMultipartOperations, createMultipartTickets, type MultipartOperations, type MultipartTicketFields } from './multipart-upload';
import { DEFAULT_KEY_PREFIX } from './object-key';
import { createPartPresigner } from './part-presign';
import { logUnexpectedError } from './errors';
import { createPresigner, PRESIGNED_URL_EXPIRES_IN, type Presigner } from './presign';
import { createPostSigner, PRESIGNED_POST_EXPIRES_IN, type PostSigner } from './presign-post';
import { assertPostObject, providerStsEndpoint, resolveProvider } from './providers';
import { processEnv, resolveStsSettings, type ResolvedStorageSettings } from './settings';
import { createSharedServices, type SharedServices } from './shared-services';
import { createRenewTickets, createTokenIssuer, type RenewTicketFields, type TokenIssuer } from './temporary-token';
import type { Tickets } from './ticket';
import { createCompletion, type Completion } from './upload-completion';
import { createReceipts, type Receipts } from './upload-receipt';
import { createUploadRecords, type UploadRecords } from './upload-record';
import { createUnsignedHeaderGate, gated } from './unsigned-header-gate';
import { createObjectLockGate } from './object-lock-gate';
import type { UploadHandlerConfig } from './config';
import type { RouteLimits } from './upload-limits';

/**
 * What one route's operations use, each built on first use and kept (settings are read on the first
 * request, not at import): storage settings and client, the presigner, the token issuer, the completion
 * store, and the receipts, tickets and upload records signed within the route's scope (`handlerScope`).
 */
export interface RouteServices {
  /** Lifetime of presigned URLs, in seconds. */
  expiresIn: number;
  keyPrefix: string;
  settings(): ResolvedStorageSettings;
  presign(): Presigner;
  /** Lifetime of presigned POST policies, in seconds ({@link PRESIGNED_POST_EXPIRES_IN}). */
  postExpiresIn: number;
  /**
   * The POST policy signer (`presign-post.ts`).
   * @throws {@link UploadError} `NOT_SUPPORTED` (501) when the provider preset has no POST Object (`postObject`).
   */
  presignPost(): PostSigner;
  /**
   * Resolves when storage refuses headers a presigned PUT did not sign (`unsigned-header-gate.ts`, once per
   * process); rejects with `INVALID_SETTINGS` where it applies them.
   */
  unsignedHeaderGate(): Promise<void>;
  issueToken(): TokenIssuer;
  receipts(): Receipts;
  completion(): Promise<Completion>;
  /** The route's upload records (`upload-record.ts`): written at preparation when it has `onUploadComplete`. */
  records(): Promise<UploadRecords>;
  multipartTickets(): Tickets<MultipartTicketFields>;
  multipart(): Promise<MultipartOperations>;
  renewTickets(): Tickets<RenewTicketFields>;
  /** The route's quotas and rate limits on the app's limit store (`upload-limits.ts`); undefined without `limits`. */
  limits: RouteLimits | undefined;
}

/** Builds `value` on first use and keeps it: settings are read on the first request, not at import. */
function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}

/**
 * The scope receipts, tickets and upload records of a route are signed within (`handlerScope`): its bucket,
 * its `keyPrefix` as configured, and its name. The reconciliation signs and verifies in the same one.
 */
export function routeScope(bucket: string, config: Pick<UploadHandlerConfig, 'keyPrefix'>, route: string | undefined): string {
  return handlerScope(bucket, config.keyPrefix ?? DEFAULT_KEY_PREFIX, route);
}

/**
 * What a route's services take from its app (`app.ts`): the shared clients and signers, the one `onError`, and
 * the route's limits on the app's limit store.
 */
export interface RouteServicesHost {
  shared: SharedServices;
  onError: (error: unknown) => void;
  limits?: RouteLimits | undefined;
}

/**
 * The services of the route `route` (undefined: a handler without routes) with these settings (the route's
 * over the shared ones), on its app's shared clients; alone (tests), on clients of its own.
 */
export function createRouteServices(
  config: UploadHandlerConfig,
  route: string | undefined,
  host: RouteServicesHost = { shared: createSharedServices(), onError: config.onError ?? logUnexpectedError },
): RouteServices {
  const expiresIn = config.expiresIn ?? PRESIGNED_URL_EXPIRES_IN;
  const keyPrefix = config.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const env = () => config.env ?? processEnv();
  const settings = once(() => host.shared.settings(config));
  // The app's S3 client and URL signer for these settings (`shared-services.ts`). The AWS SDK is loaded on
  // first use (`sdk.ts`): the client is an async source.
  const storage = once(() => host.shared.storage(settings()));
  const client = () => storage().client();
  // Receipts and tickets are signed within this route's scope: another handler or route refuses them.
  const scope = once(() => routeScope(settings().bucket, config, route));
  const multipartTickets = once(() => createMultipartTickets(settings().secretAccessKey, { scope: scope() }));
  const presigner = once(() => createPresigner(settings(), client, storage().sign));
  const unsignedHeaderGate = once(() =>
    createUnsignedHeaderGate(settings(), { client, presign: presigner(), keyPrefix, enabled: config.checkUnsignedHeaders ?? true, sign: storage().sign }),
  );
  const records = once(async () =>
    createUploadRecords({
      Bucket: settings().bucket,
      secret: settings().secretAccessKey,
      scope: scope(),
      client,
      signUrl: storage().sign,
    }),
  );
  return {
    expiresIn,
    keyPrefix,
    settings,
    // The presigned PUT asks for the S3 client only when the bucket's address needs the SDK's endpoint rules.
    // Every presigned URL waits for the check that storage refuses headers it did not sign (once per process).
    presign: once(() => gated(presigner(), unsignedHeaderGate())),
    postExpiresIn: PRESIGNED_POST_EXPIRES_IN,
    // A POST needs no unsigned-header gate: storage refuses a form field its policy does not name
    // (bench/notes/presigned-post.md). Refused where the provider has no POST Object.
    presignPost: once(() => {
      assertPostObject(resolveProvider(config, env()));
      return createPostSigner(settings(), storage().sign);
    }),
    unsignedHeaderGate: () => unsignedHeaderGate()(),
    issueToken: once(() => {
      const sts = resolveStsSettings(config, env());
      // Provider preset (providers.ts): refuses providers without STS, fills in a known STS endpoint.
      const stsEndpoint = providerStsEndpoint(resolveProvider(config, env()), sts, settings().endpoint);
      const issue = createTokenIssuer(settings(), { ...config, roleArn: sts.roleArn, stsEndpoint }, {}, host.shared.sts(settings(), stsEndpoint));
      // No token while one could give its object an object lock (object-lock-gate.ts; once per process).
      const lockGate = createObjectLockGate(settings(), { client, issue, keyPrefix, enabled: config.checkUnsignedHeaders ?? true });
      return async (key: string, notAfter?: number) => {
        await lockGate();
        return issue(key, notAfter);
      };
    }),
    receipts: once(() => createReceipts(settings().secretAccessKey, { scope: scope() })),
    completion: once(async () =>
      createCompletion({
        settings: settings(),
        client: await client(),
        policy: config,
        onUploadComplete: config.onUploadComplete,
        records: await records(),
        onError: host.onError,
        limits: host.limits,
        route,
      }),
    ),
    records,
    multipartTickets,
    multipart: once(async () =>
      createMultipartOperations({
        bucket: settings().bucket,
        storage: createMultipartStorage(settings(), await client()),
        presignPart: gated(createPartPresigner(settings(), client, storage().sign), unsignedHeaderGate()),
        tickets: multipartTickets(),
        expiresIn,
      }),
    ),
    renewTickets: once(() => createRenewTickets(settings().secretAccessKey, { scope: scope() })),
    limits: host.limits,
  };
}
