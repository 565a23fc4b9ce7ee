/**
 * Keeps the first call's promise of `build` and gives it to every later call; a failed build is forgotten, so the
 * next call tries again (a failed SDK import or client build is not kept).
 */
export function lazily<T>(build: () => Promise<T>): () => Promise<T> {
  let building: Promise<T> | undefined;
  return () =>
    (building ??= build().catch((error: unknown) => {
      building = undefined;
      throw error;
    }));
}
