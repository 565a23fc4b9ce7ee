import { Uploader } from './uploader';

/** A server component: the static text renders on the server, the interactive part is the client `Uploader`. */
export default function Page() {
  return (
    <main>
      <h1>Upbeam + Next.js</h1>
      <p className="lead">
        Pick a file: this page asks <code>/api/s3-upload</code> (the route <code>app/api/s3-upload/route.ts</code>) to
        prepare the upload, a presigned URL or temporary credentials for one object key, then sends the file straight
        to the bucket. The Next.js server never sees the file&apos;s bytes.
      </p>
      <Uploader />
    </main>
  );
}
