import { useDropZone, type FileRejection, type FileWithPath } from '@upbeam/upload-react';

/** Largest file this demo takes, in bytes (checked here before any request; the server checks its own). */
export const MAX_FILE_SIZE = 5 * 1024 * 1024 * 1024;

interface DropAreaProps {
  onFiles: (files: FileWithPath[]) => void;
  onRejected: (rejected: FileRejection[]) => void;
}

/**
 * Where files come in: a drop zone (files or folders, or a paste anywhere on the page) that opens the file
 * dialog when pressed, and a button that picks a whole folder.
 */
export function DropArea({ onFiles, onRejected }: DropAreaProps) {
  const onDrop = (accepted: FileWithPath[], rejected: FileRejection[]) => {
    if (accepted.length > 0) onFiles(accepted);
    onRejected(rejected);
  };
  const files = useDropZone({ onDrop, maxSize: MAX_FILE_SIZE, paste: 'document' });
  const folder = useDropZone({ onDrop, maxSize: MAX_FILE_SIZE, directory: true, paste: false });
  return (
    <div className="drop-area">
      <div
        {...files.getRootProps({ className: files.isDragActive ? 'drop-zone active' : 'drop-zone' })}
        aria-describedby="drop-hint"
        data-testid="drop-zone"
      >
        <input {...files.getInputProps()} data-testid="file-input" />
        <strong>{files.isDragActive ? 'Drop to upload' : 'Drop files or a folder here'}</strong>
        <span id="drop-hint">or press to choose files; you can also paste an image</span>
      </div>
      <input {...folder.getInputProps()} data-testid="folder-input" />
      <button type="button" onClick={folder.open}>
        Choose a folder
      </button>
    </div>
  );
}
