import { useEffect, useState } from 'react';

/**
 * A small preview of an image file (an object URL, revoked when the row goes or the file changes);
 * a blank square for other files. Decorative: the file's name is written beside it.
 */
export function Thumbnail({ file, className }: { file: File; className?: string }) {
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    if (!file.type.startsWith('image/')) return;
    const url = URL.createObjectURL(file);
    setSrc(url);
    return () => {
      URL.revokeObjectURL(url);
      setSrc(undefined);
    };
  }, [file]);
  if (!src) return <span className={className} data-upbeam="thumbnail" aria-hidden="true" />;
  return <img className={className} data-upbeam="thumbnail" src={src} alt="" width={40} height={40} />;
}
