// Other work on the machine, for benches that ask how a figure holds under load: child processes that
// each spin on the CPU until disposed. N of them add about N to the load average (a 1-minute mean: it
// gets there a minute after they start).
import { spawn, type ChildProcess } from 'node:child_process';

export class CpuSpinners {
  private readonly children: ChildProcess[] = [];

  constructor(count: number) {
    for (let i = 0; i < count; i += 1) {
      this.children.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
    }
  }

  get count(): number {
    return this.children.length;
  }

  dispose(): void {
    for (const child of this.children) child.kill('SIGKILL');
  }
}
