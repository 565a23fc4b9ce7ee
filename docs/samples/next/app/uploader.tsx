// app/uploader.tsx: the page's side, the ready-made uploader (drop zone, rows, overall bar)
'use client';
import { Uploader } from '@upbeam/upload-react/components';
import '@upbeam/upload-react/components.css';

export const Page = () => <Uploader />; // POSTs to /api/s3-upload by default
