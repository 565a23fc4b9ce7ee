// The page: only a type crosses from the server (`import type`). Each `@ts-expect-error` below must be an
// error, and every other line must compile: `typed-routes.test.ts` compiles this file with tsc.
import { createRouteClient, fetchRouteRules, uploadFile, UploadTracker } from '@upbeam/upload-client';
import { createRouteHooks, useDropZone, useS3Upload } from '@upbeam/upload-react';
import { UploadButton, UploadDropzone, Uploader } from '@upbeam/upload-react/components';
import type { routes } from './upload-routes';

export function AvatarPicker() {
  const avatar = useS3Upload<typeof routes, 'avatar'>({ route: 'avatar' });
  const drop = useDropZone({ route: 'avatar', onDrop: (accepted) => avatar.addFiles(accepted) });
  const first = avatar.files[0]?.result?.serverData;
  const key: string | undefined = first?.avatarKey;
  // @ts-expect-error a field the avatar route does not return
  const pages: number | undefined = first?.pages;
  return { drop, key, pages };
}

export function Typo() {
  // @ts-expect-error a route name the server does not have
  return useS3Upload<typeof routes>({ route: 'avatr' });
}

export function NoRoute() {
  // @ts-expect-error typed routes need the route
  return useS3Upload<typeof routes>({});
}

export function AnyRoute() {
  // The union of every route's data when only the routes are given.
  const upload = useS3Upload<typeof routes>({ route: 'documents' });
  const data = upload.files[0]?.result?.serverData;
  if (data !== undefined && 'pages' in data) return data.pages satisfies number;
  return undefined;
}

export function Untyped() {
  // Without routes: as before, `serverData` is unknown and every option is optional.
  const plain = useS3Upload();
  const data: unknown = plain.files[0]?.result?.serverData;
  // @ts-expect-error unknown data must be checked before use
  return data.anything;
}

export async function direct(file: File) {
  const result = await uploadFile<typeof routes, 'documents'>(file, { route: 'documents' });
  const pages: number = result.serverData!.pages;
  // @ts-expect-error documents returns no avatarKey
  result.serverData!.avatarKey;
  // @ts-expect-error a wrong route name
  await uploadFile<typeof routes>(file, { route: 'videos' });
  // @ts-expect-error typed routes need the options with the route
  await uploadFile<typeof routes>(file);
  const untyped = await uploadFile(file);
  const anything: unknown = untyped.serverData;

  const tracker = new UploadTracker<typeof routes, 'avatar'>({ route: 'avatar', maxFiles: 1 });
  const tracked = await tracker.upload(file);
  const width: number = tracked.serverData!.width;
  // @ts-expect-error a wrong route name
  new UploadTracker<typeof routes>({ route: 'nope' });
  const rules = await fetchRouteRules('avatar');
  return { pages, anything, width, max: rules.maxFileSize };
}

// One type argument, the route name inferred from `route`: the hooks and client bound to the routes.
const hooks = createRouteHooks<typeof routes>();
const client = createRouteClient<typeof routes>();

export function BoundAvatar() {
  const avatar = hooks.useS3Upload({ route: 'avatar' });
  const drop = hooks.useDropZone({ route: 'avatar', onDrop: (accepted) => avatar.addFiles(accepted) });
  const data = avatar.files[0]?.result?.serverData;
  const key: string | undefined = data?.avatarKey;
  // @ts-expect-error the avatar route returns no pages (not the union of every route's data)
  const pages: number | undefined = data?.pages;
  // @ts-expect-error a route name the server does not have
  hooks.useS3Upload({ route: 'avatr' });
  // @ts-expect-error the route is required
  hooks.useS3Upload({});
  // @ts-expect-error a drop zone of a route the server does not have
  hooks.useDropZone({ route: 'avatr' });
  return { drop, key, pages };
}

export async function boundDirect(file: File) {
  const result = await client.uploadFile(file, { route: 'documents' });
  const pages: number = result.serverData!.pages;
  // @ts-expect-error documents returns no avatarKey
  result.serverData!.avatarKey;
  // @ts-expect-error a wrong route name
  await client.uploadFile(file, { route: 'videos' });
  const tracker = new client.UploadTracker({ route: 'avatar', maxFiles: 1 });
  const width: number = (await tracker.upload(file)).serverData!.width;
  // @ts-expect-error the avatar route returns no pages
  (await tracker.upload(file)).serverData!.pages;
  // @ts-expect-error a wrong route name
  new client.UploadTracker({ route: 'nope' });
  return { pages, width };
}

export function Components() {
  return (
    <>
      <Uploader<typeof routes, 'avatar'>
        route="avatar"
        onUploadComplete={(result) => {
          const key: string = result.serverData!.avatarKey;
          // @ts-expect-error a field the avatar route does not return
          const pages: number = result.serverData!.pages;
          return [key, pages];
        }}
      />
      {/* @ts-expect-error a route name the server does not have */}
      <UploadButton<typeof routes, 'avatr'> route="avatr" />
      <UploadDropzone accept="image/*" maxSize={1_000_000} theme="dark" labels={{ cancel: 'Abbrechen' }} />
    </>
  );
}
