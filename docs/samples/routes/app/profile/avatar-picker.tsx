// app/profile/avatar-picker.tsx
'use client';
import { useDropZone, useS3Upload } from '../upload';

export function AvatarPicker() {
  const { addFiles, files } = useS3Upload({ route: 'avatar', maxFiles: 1 }); // 'avatr' does not compile
  // accept, maxSize and maxFiles come from the route's rules (the endpoint's GET): written once, on the server.
  const { getRootProps, getInputProps } = useDropZone({ route: 'avatar', onDrop: (accepted) => addFiles(accepted) });
  const avatarKey = files[0]?.result?.serverData?.avatarKey; // string | undefined: the hook's return type
  return (
    <div {...getRootProps()}>
      <input {...getInputProps()} />
      {avatarKey ? `Saved as ${avatarKey}` : 'Drop your picture'}
    </div>
  );
}
