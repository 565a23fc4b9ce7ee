// What a Next.js app's next-env.d.ts brings (next/types/global.d.ts): a stylesheet import is a module.
declare module '*.css';
