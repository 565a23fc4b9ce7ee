import { UploadDemo } from './upload-demo';

/** A server component: the static text renders on the server, the interactive part is the client `UploadDemo`. */
export default function Page() {
  return (
    <main>
      <h1>Upbeam + Next.js</h1>
      <p className="lead">
        Drop files: this page asks <code>/api/s3-upload</code> (the route <code>app/api/s3-upload/route.ts</code>) to
        prepare each upload, a presigned URL or temporary credentials for one object key, then sends the files straight
        to the bucket, three at a time. The Next.js server never sees the files&apos; bytes.
      </p>
      <UploadDemo />
    </main>
  );
}
