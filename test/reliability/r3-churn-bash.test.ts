// R3, churn of a shell: 1,000 spawn-and-kill cycles of bash leave no descriptor, process, zombie or
// pane object behind, and the live heap grows less than 10% (see churnLeavesNothing).
import { describe, it } from 'node:test';
import { churnLeavesNothing } from './churn.ts';

describe('R3, churn of bash', () => {
  it('1,000 spawn-and-kill cycles of bash leak nothing', async () => {
    await churnLeavesNothing('bash', 'bash', ['--norc', '--noprofile'], 1000);
  });
});
