// A kept queue per user: files one user left for later never upload under another user's session.
import { clearKeptUploads } from '@upbeam/upload-client';
import { useS3Upload } from '@upbeam/upload-react';

interface User {
  id: string;
}

function Uploader({ user }: { user: User }) {
  // Kept under the user's id, and restored only for that user (the scope is read when the tracker is made).
  const { addFiles, files } = useS3Upload({ persist: { scope: user.id } });
  return (
    <>
      <input type="file" multiple onChange={(event) => addFiles(event.target.files ?? [])} />
      <ul>
        {files.map((f) => (
          <li key={f.id}>
            {f.file.name}: {f.status} {f.restored ? '(restored)' : ''}
          </li>
        ))}
      </ul>
    </>
  );
}

// Another user gets another tracker: React makes a new one when the key changes.
export function UploadPage({ user }: { user: User }) {
  return <Uploader key={user.id} user={user} />;
}

// Sign-out: cancel and forget what this user left for later, while the session still holds (the aborts of
// their multipart uploads go through the preparation endpoint), then end the session.
export async function signOut(user: User): Promise<void> {
  await clearKeptUploads(user.id);
  await fetch('/api/sign-out', { method: 'POST' });
}
