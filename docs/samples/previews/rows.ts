// rows.ts: no framework, a list of picked files, each row with its preview (an image, or a video's first frame)
import { clearPreviews, drawPreview } from '@upbeam/upload-client/preview';

const input = document.querySelector<HTMLInputElement>('input[type=file]')!;
const list = document.querySelector<HTMLUListElement>('ul#files')!;
/** What undoes each row's preview, by row. */
const undraws = new Map<HTMLLIElement, () => void>();

input.addEventListener('change', () => {
  for (const file of input.files ?? []) {
    const row = document.createElement('li');
    const canvas = document.createElement('canvas');
    canvas.className = 'thumbnail'; // CSS: width: 40px; height: 40px; object-fit: cover;
    row.append(canvas, file.name);
    list.append(row);
    // The bitmap's shorter side is 40 CSS pixels on this screen; nothing is drawn for other files.
    undraws.set(row, drawPreview(canvas, file, { size: 40 * devicePixelRatio }));
  }
});

document.querySelector('button#clear')!.addEventListener('click', () => {
  for (const undraw of undraws.values()) undraw();
  undraws.clear();
  list.replaceChildren();
  clearPreviews(); // closes the previews kept for rows that might have come back
});
