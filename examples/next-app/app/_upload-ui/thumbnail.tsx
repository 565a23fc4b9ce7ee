'use client';
import { useEffect, useState } from 'react';

/** A small preview of an image file (an object URL, revoked when the row goes); nothing for other files. */
export function Thumbnail({ file }: { file: File }) {
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    if (!file.type.startsWith('image/')) return;
    const url = URL.createObjectURL(file);
    setSrc(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);
  // Decorative: the file's name is written beside it.
  if (!src) return <span className="thumbnail placeholder" aria-hidden="true" />;
  return <img className="thumbnail" src={src} alt="" width={48} height={48} />;
}
