import type { S3Client } from '@aws-sdk/client-s3';
import type { AppRoute, UploadApp } from './app';
import { createMarkerStore, type MarkerStore } from './completion-marker';
import { isUploadError } from './errors';
import { isInternalKey } from './reconcile-routes';
import type { ResolvedStorageSettings } from './settings';
import { ATTR, inSpan } from './telemetry';

/** What happened to one stored object that had no completion record. */
export interface ReconciledObject {
  /** Object key. */
  key: string;
  /** The route it belongs to (by key prefix); absent without routes. */
  route?: string;
  /** Size, in bytes, as listed (or notified). */
  size: number;
  /** Last-Modified as listed (or the notification's event time), ISO 8601. */
  lastModified: string;
  /**
   * `unreported`: found with no completion record (dry run: nothing done). `completed`: the hook ran now.
   * `recorded`: a report completed it meanwhile (the hook did not run again). `refused`: the checks or the
   * hook refused it (`code`, `error`; too large or of a type not allowed: deleted, as on a report).
   * `failed`: an unexpected error (`error`; passed to `onError`): a later run tries again. `ambiguous`: under
   * the same longest prefix as another route (`routes`): left alone. `unprepared`: no upload record of its
   * route covers it (`error` says why: not prepared by this handler, prepared before upload records were
   * kept, its record expired, or preparations with different contexts cover it): the hook did not run, and
   * the object is left alone, since nothing the server decided says whose it is.
   */
  outcome: 'unreported' | 'completed' | 'recorded' | 'refused' | 'failed' | 'ambiguous' | 'unprepared';
  /** The `UploadError` code of a `refused` object (`FILE_TOO_LARGE`, `UNSUPPORTED_MEDIA_TYPE`, the hook's). */
  code?: string;
  /** Why it was `refused` (our text or the hook's) or `failed` (`name: message` of the error). */
  error?: string;
  /** The routes that share the key's prefix (`ambiguous`). */
  routes?: string[];
}

/** Why an object is `unprepared`, by what its records say. */
const UNPREPARED = {
  none: 'No upload record of this route covers the object (not prepared by this handler, prepared before upload records were kept, or its record expired): left alone.',
  conflicting: 'Preparations of this key with different contexts cover the object: it is not known whose it is, left alone.',
} as const;

/** Whose an object is: the handler's own, a route's without a hook, routes' that share a prefix, or a route's. */
export type ObjectOwner = { kind: 'internal' } | { kind: 'no-hook' } | { kind: 'ambiguous'; routes: string[] } | { kind: 'route'; route: AppRoute };

/** The storage and routes of a handler's app, and the completion of one object found on storage. */
export interface ObjectCompleter {
  settings: ResolvedStorageSettings;
  client: S3Client;
  markers: MarkerStore;
  ownerOf(key: string): ObjectOwner;
  /** Runs the route's completion for `found` (checks, claim, hook once) and says what came of it. */
  complete(route: AppRoute, found: ReconciledObject): Promise<ReconciledObject>;
}

/**
 * The completion of objects the server finds itself (a listing, a storage notification) rather than hears of
 * from a page: the route read from the key (the app's route table), then the route's own completion
 * (`upload-completion.ts`, the route's services in the app), on the app's one S3 client.
 */
export async function createObjectCompleter(app: UploadApp): Promise<ObjectCompleter> {
  const settings = app.settings();
  const client = await app.client();
  return {
    settings,
    client,
    markers: createMarkerStore(client, settings.bucket, Date.now),
    ownerOf(key) {
      const owner = app.ownerOf(key);
      if (isInternalKey(key, owner && 'route' in owner ? owner.route.keyPrefix : '')) return { kind: 'internal' };
      if (owner === undefined || ('route' in owner && !owner.route.config.onUploadComplete)) return { kind: 'no-hook' };
      return 'route' in owner ? { kind: 'route', route: owner.route } : { kind: 'ambiguous', routes: owner.ambiguous };
    },
    async complete(route, found) {
      try {
        // A child span of the run (`upbeam.reconcile`, `upbeam.storage_event`); a refusal or failure is recorded in it, then reported.
        const attributes = { [ATTR.operation]: 'complete', [ATTR.source]: 'reconcile', [ATTR.key]: found.key };
        const reconciled = await inSpan('upbeam.complete', { route: route.name, attributes }, async (span) => {
          const result = await (await route.services.completion()).reconcile(found.key);
          span.setAttribute('upbeam.completion', 'unprepared' in result ? 'unprepared' : result.ran ? 'completed' : 'recorded');
          return result;
        });
        if ('unprepared' in reconciled) return { ...found, outcome: 'unprepared', error: UNPREPARED[reconciled.unprepared] };
        return { ...found, outcome: reconciled.ran ? 'completed' : 'recorded' };
      } catch (error) {
        if (isUploadError(error)) return { ...found, outcome: 'refused', code: error.code, error: error.message };
        app.onError(error);
        const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
        return { ...found, outcome: 'failed', error: `${name}: ${message}` };
      }
    },
  };
}
