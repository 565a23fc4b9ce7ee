import { describeUploadPage } from '@upbeam/example-shared/upload-suite';

// The Vue example in real browsers, chromium, Firefox and WebKit: its page built with Vite (useS3Upload
// and useDropZone of @upbeam/upload-vue), served by the Vite examples' shared server, uploading to the
// embedded storage. The Svelte example's page runs the same suite (examples/shared/test/upload-suite.ts).
describeUploadPage({ framework: 'Vue', root: new URL('..', import.meta.url) });
