// uploads.component.ts: a standalone component with its own list of uploads and a drop zone.
import { Component, signal } from '@angular/core';
import { injectS3Upload, UpbeamDropZone, UpbeamDropZoneInput, type DropZoneOptions, type FileRejection } from '@upbeam/upload-angular';

@Component({
  selector: 'app-uploads',
  imports: [UpbeamDropZone, UpbeamDropZoneInput],
  template: `
    <div class="zone" [upbeamDropZone]="zoneOptions" #zone="upbeamDropZone" [class.active]="zone.isDragActive()">
      <input upbeamDropZoneInput />
      Drop files here, paste them, or press to choose
    </div>
    @for (rejection of refused(); track $index) {
      <p role="alert">{{ rejection.message }}</p>
    }
    <progress [value]="upload.summary().progress" max="100" aria-label="All files"></progress>
    @for (f of upload.files(); track f.id) {
      <div>
        {{ f.path ?? f.file.name }} <progress [value]="f.progress" max="100"></progress> {{ f.status }}
        @if (f.status === 'uploading') { <button (click)="upload.cancel(f.id)">Cancel</button> }
        @if (f.status === 'error' || f.status === 'aborted') { <button (click)="upload.retry(f.id)">Retry</button> }
      </div>
    }
  `,
})
export class UploadsComponent {
  // Stops listening when the component is destroyed; upload.setOptions(...) for the files added after.
  readonly upload = injectS3Upload({ resume: true, concurrency: 3 });
  readonly refused = signal<FileRejection[]>([]);
  readonly zoneOptions: DropZoneOptions = {
    accept: 'image/*,.pdf',
    maxSize: 100 * 1024 * 1024,
    onDrop: (accepted, rejected) => {
      this.upload.addFiles(accepted);
      this.refused.set(rejected);
    },
  };
}
