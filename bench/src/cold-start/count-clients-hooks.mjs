// Module hooks of count-clients.mjs: `@aws-sdk/client-s3` and `@aws-sdk/client-sts` resolve to a module that
// re-exports the real one with its client class replaced by a counting subclass.
const COUNTED = { '@aws-sdk/client-s3': 'S3Client', '@aws-sdk/client-sts': 'STSClient' };
const PREFIX = 'upbeam-count:';

export async function resolve(specifier, context, next) {
  const name = COUNTED[specifier];
  if (name === undefined || context.parentURL?.startsWith(PREFIX)) return next(specifier, context);
  const real = await next(specifier, context);
  return { url: `${PREFIX}${name}?${encodeURIComponent(real.url)}`, shortCircuit: true };
}

export async function load(url, context, next) {
  if (!url.startsWith(PREFIX)) return next(url, context);
  const [name, real] = url.slice(PREFIX.length).split('?');
  const from = JSON.stringify(decodeURIComponent(real));
  const source = `export * from ${from};
import { ${name} as Real } from ${from};
export class ${name} extends Real {
  constructor(...args) {
    super(...args);
    const counts = (globalThis.upbeamClientsConstructed ??= {});
    counts.${name} = (counts.${name} ?? 0) + 1;
  }
}`;
  return { format: 'module', source, shortCircuit: true };
}
