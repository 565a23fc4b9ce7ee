// src/app/upload.ts (the page's side: only a type crosses, with `import type`)
import { Component, computed } from '@angular/core';
import { createRouteHooks } from '@upbeam/upload-angular';
import type { routes } from '../routes/app/api/s3-upload/upload-routes';

export const { injectS3Upload } = createRouteHooks<typeof routes>();

// The route name is checked, and `serverData` is the avatar route's onUploadComplete return type.
@Component({
  selector: 'app-avatar-picker',
  template: `<input type="file" accept="image/*" (change)="pick($event)" /> {{ avatarKey() }}`,
})
export class AvatarPicker {
  readonly avatar = injectS3Upload({ route: 'avatar' });
  readonly avatarKey = computed(() => this.avatar.files().at(-1)?.result?.serverData?.avatarKey);

  pick(event: Event) {
    this.avatar.addFiles((event.target as HTMLInputElement).files ?? []);
  }
}
