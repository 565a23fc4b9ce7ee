// The types of `@upbeam/upload-react/components.css` (its export map's `types` condition, and `typesVersions` for
// the node10 resolution): the stylesheet is imported for its effect alone (`import '@upbeam/upload-react/components.css'`)
// and exports nothing. With it, that import type-checks under `noUncheckedSideEffectImports` (TypeScript 6's
// default) with no `declare module '*.css'` in the app. A .d.cts: an ES module and a CommonJS file may both import it.
export {};
