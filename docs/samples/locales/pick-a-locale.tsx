import { Uploader } from '@upbeam/upload-react/components';
import { fr } from '@upbeam/upload-react/locales';
import '@upbeam/upload-react/components.css';

/** The uploader in French, two words in the product's own voice on top of the locale's. */
export function Photos() {
  return <Uploader route="photos" locale={fr} labels={{ button: 'Ajouter des photos', status: { done: 'En ligne' } }} />;
}
