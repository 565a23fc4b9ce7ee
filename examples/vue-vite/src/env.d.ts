// A `.vue` file as TypeScript sees it from a `.ts` file (its template is checked by the Vite build).
declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent;
  export default component;
}
