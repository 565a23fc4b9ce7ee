import { describe, expect, it } from 'vitest';
import { MAX_STEP, MIN_STEP, nextGrowthStep } from './use-growing-list';

describe('nextGrowthStep', () => {
  it('sizes the next step so that it takes about the budget', () => {
    expect(nextGrowthStep(200, 40)).toBe(125);
    expect(nextGrowthStep(100, 20)).toBe(125);
  });

  it('at most doubles a step that took little (a frame at 60 Hz is ~17 ms whatever the rows cost)', () => {
    expect(nextGrowthStep(100, 16.7)).toBe(150);
    expect(nextGrowthStep(100, 1)).toBe(200);
    expect(nextGrowthStep(100, 0)).toBe(200);
  });

  it('at most halves a step that took long', () => {
    expect(nextGrowthStep(200, 500)).toBe(100);
  });

  it('stays within the smallest and largest step', () => {
    expect(nextGrowthStep(MIN_STEP, 1000)).toBe(MIN_STEP);
    expect(nextGrowthStep(MAX_STEP, 1)).toBe(MAX_STEP);
  });
});
