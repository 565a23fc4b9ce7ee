import { useEffect, useState } from 'react';

/**
 * The stored image, read back from the private bucket through a signed GET URL the server gives
 * (`/api/object-url`, valid 5 minutes): `result.url` opens only on a public bucket.
 */
export function StoredImage({ objectKey }: { objectKey: string }) {
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    const controller = new AbortController();
    fetch(`/api/object-url?key=${encodeURIComponent(objectKey)}`, { signal: controller.signal })
      .then((response) => (response.ok ? (response.json() as Promise<{ url: string }>) : undefined))
      .then((answer) => setSrc(answer?.url))
      .catch(() => {});
    return () => controller.abort();
  }, [objectKey]);
  if (!src) return null;
  return <img className="stored-image" data-testid="stored-image" src={src} alt="The stored image, from the private bucket" width={96} />;
}
