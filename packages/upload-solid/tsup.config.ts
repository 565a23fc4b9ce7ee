import { libraryConfig } from '../../tsup.base';

export default libraryConfig({ external: ['solid-js', /^solid-js\//] });
