import { describe, expect, it } from 'vitest';
import { sameRowProps } from './upload-row';

describe('sameRowProps (the memo comparison of a row)', () => {
  const measure = () => {};
  const actions = {};
  const place = { index: 3, top: 120, setSize: 500, measure };
  type Props = { actions: object; place?: typeof place };
  const same = (prev: Props, next: Props) => sameRowProps(prev, next);

  it('holds a row whose props are the same objects and whose place is a new object with equal fields', () => {
    expect(same({ actions, place }, { actions, place: { ...place } })).toBe(true);
    expect(same({ actions }, { actions })).toBe(true);
  });

  it('renders again when the place moves, the list grows, or any other prop is another object', () => {
    expect(same({ actions, place }, { actions, place: { ...place, top: 160 } })).toBe(false);
    expect(same({ actions, place }, { actions, place: { ...place, setSize: 501 } })).toBe(false);
    expect(same({ actions, place }, { actions, place: { ...place, measure: () => {} } })).toBe(false);
    expect(same({ actions, place }, { actions: {}, place })).toBe(false);
    expect(same({ actions, place }, { actions, place: undefined })).toBe(false);
  });
});
