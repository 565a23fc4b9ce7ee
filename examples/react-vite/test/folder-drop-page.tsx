/**
 * The page of `folder-drop.e2e.test.ts`: the components' `<Uploader>` (its own `useS3Upload`, 3 at once), onto
 * which the test drops a real folder of files (DevTools `Input.dispatchDragEvent`).
 */
import { Uploader } from '@upbeam/upload-react/components';
import { createRoot } from 'react-dom/client';

createRoot(document.getElementById('root')!).render(<Uploader options={{ concurrency: 3 }} warnBeforeLeave={false} />);
