// uploads.service.ts: one list for the whole app (a header's counter, a page's list), while it runs.
import { computed, Injectable } from '@angular/core';
import { injectS3Upload } from '@upbeam/upload-angular';

@Injectable({ providedIn: 'root' })
export class Uploads {
  // A field initializer is an injection context; the root injector lives as long as the app.
  readonly upload = injectS3Upload({ persist: true });
  readonly running = computed(() => this.upload.summary().count.uploading);
}

// In a component: `readonly uploads = inject(Uploads);`, then `uploads.upload.files()` in its template.
