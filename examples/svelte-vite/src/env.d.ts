// A `.svelte` file as TypeScript sees it from a `.ts` file (its markup is checked by the Vite build).
declare module '*.svelte' {
  import type { Component } from 'svelte';
  const component: Component;
  export default component;
}
