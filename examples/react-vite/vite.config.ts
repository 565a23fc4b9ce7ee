import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    // Two pages: the example (index.html) and the ready-made components alone (components.html).
    rollupOptions: {
      input: {
        index: fileURLToPath(new URL('index.html', import.meta.url)),
        components: fileURLToPath(new URL('components.html', import.meta.url)),
      },
    },
  },
});
