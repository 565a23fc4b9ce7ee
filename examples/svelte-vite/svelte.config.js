// Svelte's defaults: runes, and TypeScript in <script lang="ts"> (type annotations only) without a preprocessor.
export default {};
