// src/upload.ts (the page's side: only a type crosses, with `import type`)
import { createDropZone, createRouteHooks } from '@upbeam/upload-solid';
import type { routes } from '../routes/app/api/s3-upload/upload-routes';

export const { createS3Upload } = createRouteHooks<typeof routes>();

// In a component: the route name is checked, and `serverData` is the avatar route's onUploadComplete return type.
export function createAvatarPicker() {
  const avatar = createS3Upload({ route: 'avatar' });
  // The route's rules (image/*, 4 MiB, one file), read from the endpoint's GET: checked before any request.
  const zone = createDropZone({ route: 'avatar', onDrop: (accepted) => avatar.addFiles(accepted) });
  const avatarKey = () => avatar.files().at(-1)?.result?.serverData?.avatarKey;
  return { avatar, zone, avatarKey };
}
