import { describeUploadPage } from '@upbeam/example-shared/upload-suite';

// The Solid example in real browsers, chromium, Firefox and WebKit: its page built with Vite (createS3Upload
// and createDropZone of @upbeam/upload-solid, JSX compiled by vite-plugin-solid), served by the Vite examples'
// shared server, uploading to the embedded storage. The Vue and Svelte examples' pages run the same suite
// (examples/shared/test/upload-suite.ts).
describeUploadPage({ framework: 'Solid', root: new URL('..', import.meta.url) });
