import { ChangeDetectionStrategy, Component, computed, input, output } from '@angular/core';
import type { TrackedFile } from '@upbeam/upload-angular';
import { describeError, formatBytes, STATUS_TEXT } from '@upbeam/example-shared/format';

/** One file: name, friendly status, its progress, its buttons and, once stored, its URL. */
@Component({
  selector: 'li[app-upload-row]',
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: {
    '[class]': '"upload " + status()',
    'data-testid': 'upload',
    '[attr.data-status]': 'status()',
    '[attr.data-progress]': 'tracked().progress',
  },
  template: `
    <div class="upload-body">
      <div class="upload-head">
        <span class="name">{{ name() }}</span>
        <span class="status" data-testid="status">{{ statusText[status()] }}</span>
      </div>
      <progress max="100" [value]="tracked().progress" [attr.aria-label]="name() + ' progress'"></progress>
      <div class="upload-foot">
        <span class="amount">{{ floor(tracked().progress) }}% · {{ formatBytes(tracked().uploaded) }} of {{ formatBytes(tracked().size) }}</span>
        <span class="buttons">
          @if (running() && tracked().multipart) {
            <button type="button" (click)="status() === 'paused' ? resume.emit() : pause.emit()">{{ status() === 'paused' ? 'Resume' : 'Pause' }}</button>
          }
          @if (running() || status() === 'queued') {
            <button type="button" data-testid="cancel" (click)="cancel.emit()">Cancel</button>
          }
          @if (status() === 'error' || status() === 'aborted') {
            <button type="button" data-testid="retry" (click)="retry.emit()">Retry</button>
          }
          @if (ended()) {
            <button type="button" [attr.aria-label]="'Remove ' + name()" (click)="remove.emit()">Remove</button>
          }
        </span>
      </div>
      @if (status() === 'error') {
        <p class="error" role="alert" data-testid="error">{{ error() }}</p>
      }
      @if (tracked().url; as url) {
        <a class="object-url" data-testid="object-url" [href]="url" target="_blank" rel="noreferrer">{{ url }}</a>
      }
    </div>
  `,
})
export class UploadRow {
  readonly tracked = input.required<TrackedFile>();
  readonly cancel = output();
  readonly pause = output();
  readonly resume = output();
  readonly retry = output();
  readonly remove = output();

  protected readonly statusText = STATUS_TEXT;
  protected readonly formatBytes = formatBytes;
  protected readonly floor = Math.floor;
  protected readonly status = computed(() => this.tracked().status);
  protected readonly running = computed(() => this.status() === 'uploading' || this.status() === 'paused');
  protected readonly ended = computed(() => ['done', 'error', 'aborted'].includes(this.status()));
  protected readonly name = computed(() => this.tracked().path ?? this.tracked().file.name);
  protected readonly error = computed(() => describeError(this.tracked().error));
}
