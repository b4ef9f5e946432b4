// R3, churn of a program that exits at once: 1,000 spawn-and-kill cycles of `true` (the kill often
// finds the pane already exited) leave no descriptor, process, zombie or pane object behind, and the
// live heap grows less than 10% (see churnLeavesNothing).
import { describe, it } from 'node:test';
import { churnLeavesNothing } from './churn.ts';

describe('R3, churn of a program that exits at once', () => {
  it('1,000 spawn-and-kill cycles of true leak nothing', async () => {
    await churnLeavesNothing('quick exit', 'true', [], 1000);
  });
});
