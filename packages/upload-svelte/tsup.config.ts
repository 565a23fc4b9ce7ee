import { libraryConfig } from '../../tsup.base';

export default libraryConfig({ external: ['svelte', /^svelte\//] });
