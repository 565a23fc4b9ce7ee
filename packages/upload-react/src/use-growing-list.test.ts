import { describe, expect, it } from 'vitest';
import { MAX_STEP, MIN_STEP, nextGrowth } from './use-growing-list';

describe('nextGrowth', () => {
  it('learns a row cost from the first timed step and fills the 25 ms budget with rows', () => {
    // 200 rows in 70 ms: at most 0.35 ms a row, nothing else in the step as far as can be told: 71 rows.
    expect(nextGrowth({ step: 200, rowMs: Infinity }, 70)).toEqual({ step: 71, rowMs: 0.35 });
  });

  it('keeps the least row cost seen, and budgets only what the rest of the step leaves', () => {
    // 100 rows in 15 ms with rows known to cost 0.05 ms: 10 ms of the step is the rest (the rows already
    // shown), so 15 ms are left: 300 rows, more than the most a step grows (150).
    expect(nextGrowth({ step: 100, rowMs: 0.05 }, 15)).toEqual({ step: 150, rowMs: 0.05 });
    // 400 rows in 24 ms with rows known to cost 0.01 ms: 20 ms of rest leaves 5 ms, 500 rows.
    expect(nextGrowth({ step: 400, rowMs: 0.01 }, 24)).toEqual({ step: 500, rowMs: 0.01 });
    // 400 rows in 26 ms: 22 ms of rest leaves 3 ms, 300 rows.
    expect(nextGrowth({ step: 400, rowMs: 0.01 }, 26)).toEqual({ step: 300, rowMs: 0.01 });
  });

  it('grows a step that took little by at most half (a row costs more on a longer list than the short one taught)', () => {
    expect(nextGrowth({ step: 100, rowMs: Infinity }, 16.7).step).toBe(150);
    expect(nextGrowth({ step: 100, rowMs: Infinity }, 1).step).toBe(150);
    expect(nextGrowth({ step: 100, rowMs: Infinity }, 0).step).toBe(150);
    expect(nextGrowth({ step: 100, rowMs: 0.001 }, 17).step).toBe(150);
  });

  it('falls to the smallest step where the rest of the step leaves no room', () => {
    expect(nextGrowth({ step: 500, rowMs: 0.01 }, 45).step).toBe(MIN_STEP);
    expect(nextGrowth({ step: 200, rowMs: Infinity }, 500).step).toBe(MIN_STEP);
    // 45 ms with 20 rows of 0.05 ms: 44 ms is the rest, no room beside it.
    expect(nextGrowth({ step: 20, rowMs: 0.05 }, 45)).toEqual({ step: MIN_STEP, rowMs: 0.05 });
  });

  it('after a step over 50 ms, takes its time per row as the cost of a row (rows cost more on a long list)', () => {
    // 300 rows in 90 ms where rows were learned at 0.01 ms: from now on 0.3 ms a row, 83 rows a step.
    expect(nextGrowth({ step: 300, rowMs: 0.01 }, 90)).toEqual({ step: 83, rowMs: 0.3 });
    // And it stays learned: 83 rows in 20 ms (at most 0.24 ms a row) with 0.3 known leaves the row cost at
    // 0.241 ms, and no rest: 104 rows.
    expect(nextGrowth({ step: 83, rowMs: 0.3 }, 20).step).toBe(104);
  });

  it('stays within the smallest and largest step', () => {
    expect(nextGrowth({ step: MIN_STEP, rowMs: 1 }, 45).step).toBe(MIN_STEP);
    expect(nextGrowth({ step: MAX_STEP, rowMs: Infinity }, 1).step).toBe(MAX_STEP);
  });
});
