import { ChangeDetectionStrategy, Component, computed, signal } from '@angular/core';
import type { UploadStrategy } from '@upbeam/upload-client';
import { injectS3Upload, UpbeamDropZone, UpbeamDropZoneInput, type DropZoneOptions, type FileRejection } from '@upbeam/upload-angular';
import { MULTIPART_THRESHOLD, STRATEGIES } from '@upbeam/example-shared/format';
import { UploadRow } from './upload-row';

/** The page: the strategy, the drop zone, the totals and one row per file. */
@Component({
  selector: 'app-root',
  imports: [UpbeamDropZone, UpbeamDropZoneInput, UploadRow],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <main>
      <h1>Upbeam <small>Angular</small></h1>
      <p class="lead">
        Drop files: this page asks <code>/api/s3-upload</code> to prepare each upload (a presigned URL, or temporary
        credentials for one object key), then sends the files straight to the bucket, three at a time.
      </p>
      <fieldset class="strategy">
        <legend>Strategy</legend>
        @for (option of strategies; track option.value) {
          <label>
            <input type="radio" name="strategy" [value]="option.value" [checked]="strategy() === option.value" (change)="setStrategy(option.value)" />
            {{ option.label }}
          </label>
        }
      </fieldset>
      <section class="uploader" aria-label="Uploads">
        <div class="drop-area">
          <div class="drop-zone" [upbeamDropZone]="zoneOptions" #zone="upbeamDropZone" [class.active]="zone.isDragActive()" data-testid="drop-zone">
            <input upbeamDropZoneInput data-testid="file-input" />
            <strong>{{ zone.isDragActive() ? 'Drop to upload' : 'Drop files or a folder here' }}</strong>
            <span>or press to choose files; you can also paste an image</span>
          </div>
        </div>
        @if (rejected().length > 0) {
          <ul class="rejections" role="alert">
            @for (rejection of rejected(); track rejection.file) {
              <li>{{ rejection.message }}</li>
            }
          </ul>
        }
        @if (upload.files().length > 0) {
          <div class="overall">
            <progress max="100" [value]="upload.summary().progress" aria-label="All files progress" data-testid="overall-progress"></progress>
            <div class="overall-foot">
              <span data-testid="summary">{{ upload.summary().count.done }} of {{ upload.files().length }} uploaded · {{ percent() }}%</span>
              <span class="buttons">
                <button type="button" [disabled]="active() === 0" (click)="upload.cancel()">Cancel all</button>
                <button type="button" [disabled]="active() > 0" (click)="upload.resetFiles()">Clear list</button>
              </span>
            </div>
          </div>
        }
        <ul class="uploads">
          @for (tracked of upload.files(); track tracked.id) {
            <li
              app-upload-row
              [tracked]="tracked"
              (cancel)="upload.cancel(tracked.id)"
              (pause)="upload.pause(tracked.id)"
              (resume)="upload.resume(tracked.id)"
              (retry)="upload.retry(tracked.id)"
              (remove)="upload.remove(tracked.id)"
            ></li>
          }
        </ul>
      </section>
    </main>
  `,
})
export class App {
  protected readonly strategies = STRATEGIES;
  protected readonly strategy = signal<UploadStrategy>('presigned');
  protected readonly upload = injectS3Upload({ multipartThreshold: MULTIPART_THRESHOLD.presigned });
  protected readonly rejected = signal<FileRejection[]>([]);
  protected readonly zoneOptions: DropZoneOptions = {
    paste: 'document',
    onDrop: (accepted, refused) => {
      if (accepted.length > 0) this.upload.addFiles(accepted);
      this.rejected.set(refused);
    },
  };
  protected readonly active = computed(() => {
    const { count } = this.upload.summary();
    return count.queued + count.uploading + count.paused;
  });
  protected readonly percent = computed(() => Math.floor(this.upload.summary().progress));

  /** A change of strategy applies to the files added after it. */
  protected setStrategy(strategy: UploadStrategy): void {
    this.strategy.set(strategy);
    this.upload.setOptions({ strategy, multipartThreshold: MULTIPART_THRESHOLD[strategy] });
  }
}
