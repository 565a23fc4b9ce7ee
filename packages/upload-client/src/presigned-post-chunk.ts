/**
 * The presigned-post strategy's chunk, loaded with `import()` by its first upload (`strategy: 'presigned-post'`,
 * or a `presigned` preparation answered with `fields`): one place that names it, for `uploadFile`, its preload
 * and `presigned-put`.
 */
export const loadPresignedPost = () => import('./presigned-post/presigned-post');
