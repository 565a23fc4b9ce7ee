import { describeUploadPage } from '@upbeam/example-shared/upload-suite';

// The Angular example in real browsers, chromium, Firefox and WebKit: its page built with the Angular CLI
// (injectS3Upload and the upbeamDropZone directive of @upbeam/upload-angular), served by the Vite examples'
// shared server, uploading to the embedded storage. The Vue and Svelte pages run the same suite
// (examples/shared/test/upload-suite.ts).
describeUploadPage({ framework: 'Angular', root: new URL('..', import.meta.url) });
