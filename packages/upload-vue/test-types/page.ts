// The page: only a type crosses from the server (`import type`, the routes of upload-react's fixture). Each
// `@ts-expect-error` below must be an error, and every other line must compile: `typed-routes.test.ts`
// compiles this file with tsc.
import { createRouteHooks, useS3Upload } from '@upbeam/upload-vue';
import { shallowRef } from 'vue';
import type { routes } from '../../upload-react/test-types/upload-routes';

// One type argument, the route name inferred from `route`: the composable bound to the routes.
const hooks = createRouteHooks<typeof routes>();

export async function boundAvatar(file: File) {
  const avatar = hooks.useS3Upload({ route: 'avatar' });
  const data = avatar.files.value[0]?.result?.serverData;
  const key: string | undefined = data?.avatarKey;
  // @ts-expect-error the avatar route returns no pages (not the union of every route's data)
  const pages: number | undefined = data?.pages;
  const width: number = (await avatar.uploadToS3(file)).serverData!.width;
  const added = avatar.addFiles([file])[0]?.result?.serverData?.owner;
  // @ts-expect-error a route name the server does not have
  hooks.useS3Upload({ route: 'avatr' });
  // @ts-expect-error the route is required
  hooks.useS3Upload({});
  return { key, pages, width, added };
}

export function boundReactive() {
  // A getter or a shallowRef of the options, as `useS3Upload` takes them.
  const documents = hooks.useS3Upload(() => ({ route: 'documents' as const, concurrency: 2 }));
  const pages: number | undefined = documents.files.value[0]?.result?.serverData?.pages;
  const avatar = hooks.useS3Upload(shallowRef({ route: 'avatar' as const }));
  const key: string | undefined = avatar.files.value[0]?.result?.serverData?.avatarKey;
  return { pages, key };
}

export function untyped() {
  // Without routes: as before, `serverData` is unknown and every option is optional.
  const plain = useS3Upload();
  const data: unknown = plain.files.value[0]?.result?.serverData;
  useS3Upload({ route: 'any-name' });
  // @ts-expect-error unknown data must be checked before use
  return data.anything;
}
