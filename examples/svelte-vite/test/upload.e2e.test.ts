import { describeUploadPage } from '@upbeam/example-shared/upload-suite';

// The Svelte example in real browsers, chromium, Firefox and WebKit: its page built with Vite (createS3Upload
// and createDropZone of @upbeam/upload-svelte), served by the Vite examples' shared server, uploading to the
// embedded storage. The Vue example's page runs the same suite (examples/shared/test/upload-suite.ts).
describeUploadPage({ framework: 'Svelte', root: new URL('..', import.meta.url) });
