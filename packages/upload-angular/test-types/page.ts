// The page: only a type crosses from the server (`import type`, the routes of upload-react's fixture). Each
// `@ts-expect-error` below must be an error, and every other line must compile: `typed-routes.test.ts`
// compiles this file with tsc. (Type-checked only: injectS3Upload runs in an injection context.)
import { createRouteHooks, injectS3Upload } from '@upbeam/upload-angular';
import type { routes } from '../../upload-react/test-types/upload-routes';

// One type argument, the route name inferred from `route`: the function bound to the routes.
const hooks = createRouteHooks<typeof routes>();

export async function boundAvatar(file: File) {
  const avatar = hooks.injectS3Upload({ route: 'avatar' });
  const data = avatar.files()[0]?.result?.serverData;
  const key: string | undefined = data?.avatarKey;
  // @ts-expect-error the avatar route returns no pages (not the union of every route's data)
  const pages: number | undefined = data?.pages;
  const width: number = (await avatar.uploadToS3(file)).serverData!.width;
  const added = avatar.addFiles([file])[0]?.result?.serverData?.owner;
  // @ts-expect-error a route name the server does not have
  hooks.injectS3Upload({ route: 'avatr' });
  // @ts-expect-error the route is required
  hooks.injectS3Upload({});
  return { key, pages, width, added };
}

export function untyped() {
  // Without routes: as before, `serverData` is unknown and every option is optional.
  const plain = injectS3Upload();
  const data: unknown = plain.files()[0]?.result?.serverData;
  injectS3Upload({ route: 'any-name' });
  // @ts-expect-error unknown data must be checked before use
  return data.anything;
}
