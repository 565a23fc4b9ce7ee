/**
 * The many-files benchmarks' list, defined once: the stylings of a row (and of the list) that the React lists
 * (`page.tsx`) and the frame-cost page (`frame-cost-page.ts`) measure, and a row drawn with DOM calls as the
 * list's floors draw it (the markup of `page.tsx`'s `Row`: name, `<progress>`, status word).
 */

/** A row out of view is not laid out or painted; its height is taken as one line until it has been drawn once. */
export const OFFSCREEN_SKIPPED = { contentVisibility: 'auto', containIntrinsicSize: 'auto 1.5em' } as const;

/**
 * A contained row (docs/guide/many-files.md): one line of a fixed height, whose changes lay out only itself, in a
 * list whose changes do not lay out the page around it.
 */
export const CONTAINED_ROW = { contain: 'strict', height: '1.5em', whiteSpace: 'nowrap' } as const;
export const CONTAINED_LIST = { contain: 'layout style' } as const;

/** A row drawn with DOM calls, with the two nodes a change writes. */
export interface DomRow {
  row: HTMLLIElement;
  progress: HTMLProgressElement;
  status: Text;
}

export function createDomRow(name: string, percent: number, status: string): DomRow {
  const progress = Object.assign(document.createElement('progress'), { max: 100, value: percent });
  const statusText = document.createTextNode(status);
  const row = document.createElement('li');
  row.append(`${name} `, progress, ' ', statusText);
  return { row, progress, status: statusText };
}
