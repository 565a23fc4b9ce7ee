import { describe, expect, it } from 'vitest';
import { nextTask } from './next-task';

describe('nextTask', () => {
  it('wakes every waiter once, in the order they asked, each after the tasks queued before it', async () => {
    const order: string[] = [];
    setTimeout(() => order.push('timer queued first'), 0);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const waits = ['a', 'b', 'c'].map((name) => nextTask().then(() => order.push(name)));
    order.push('caller goes on');
    await Promise.all(waits);
    expect(order).toEqual(['timer queued first', 'caller goes on', 'a', 'b', 'c']);
  });
});
