import type { Metadata } from 'next';
import type { ReactNode } from 'react';
// Global stylesheets go in the root layout: the components' look first, then the page's own.
import '@upbeam/upload-react/components.css';
import '@upbeam/example-shared/style.css';

export const metadata: Metadata = {
  title: 'Upbeam + Next.js: upload straight to S3',
  description: 'Pick a file: the route prepares the upload, the browser sends it straight to the bucket.',
};

// No next/font: the page uses the system font stack (@upbeam/example-shared/style.css), so `next build` needs no network.
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
