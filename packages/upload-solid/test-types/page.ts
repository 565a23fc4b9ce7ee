// The page: only a type crosses from the server (`import type`, the routes of upload-react's fixture). Each
// `@ts-expect-error` below must be an error, and every other line must compile: `typed-routes.test.ts`
// compiles this file with tsc.
import { createRouteHooks, createS3Upload } from '@upbeam/upload-solid';
import type { routes } from '../../upload-react/test-types/upload-routes';

// One type argument, the route name inferred from `route`: the function bound to the routes.
const hooks = createRouteHooks<typeof routes>();

export async function boundAvatar(file: File) {
  const avatar = hooks.createS3Upload({ route: 'avatar' });
  const data = avatar.files()[0]?.result?.serverData;
  const key: string | undefined = data?.avatarKey;
  // @ts-expect-error the avatar route returns no pages (not the union of every route's data)
  const pages: number | undefined = data?.pages;
  const width: number = (await avatar.uploadToS3(file)).serverData!.width;
  const added = avatar.addFiles([file])[0]?.result?.serverData?.owner;
  // An accessor of options: the route name is inferred through it too.
  const documents = hooks.createS3Upload(() => ({ route: 'documents' }));
  const count: number | undefined = documents.files()[0]?.result?.serverData?.pages;
  // @ts-expect-error a route name the server does not have
  hooks.createS3Upload({ route: 'avatr' });
  // @ts-expect-error the route is required
  hooks.createS3Upload({});
  return { key, pages, width, added, count };
}

export function untyped() {
  // Without routes: as before, `serverData` is unknown and every option is optional.
  const plain = createS3Upload();
  const data: unknown = plain.files()[0]?.result?.serverData;
  createS3Upload({ route: 'any-name' });
  // @ts-expect-error unknown data must be checked before use
  return data.anything;
}
