// Which Copilot CLI session a process holds (docs/usage.md, "Which Copilot CLI session is the pane's"):
// real processes of the fake Copilot hold their session files open as Copilot CLI 1.0.102 does, and only
// the files a process holds under its own pid name its sessions.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { copilotRecordOf } from '../../../src/daemon/usage/copilot-sessions.ts';

const FAKE_COPILOT = fileURLToPath(new URL('../../fixtures/agents/fake-copilot.mjs', import.meta.url));

/** A fake Copilot (or a shell running one) with its output read line by line. */
class Fake {
  readonly child: ChildProcess;
  private output = '';
  private waiters: (() => void)[] = [];

  constructor(env: Record<string, string>, viaShell = false) {
    const command = viaShell ? ['/bin/sh', ['-c', `"${process.execPath}" "${FAKE_COPILOT}"; exit 0`]] as const : [process.execPath, [FAKE_COPILOT]] as const;
    this.child = spawn(command[0], command[1], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'inherit'] });
    this.child.stdout!.setEncoding('utf8');
    this.child.stdout!.on('data', (text: string) => {
      this.output += text;
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** Waits until the output holds `pattern`; answers its first group. */
  async saw(pattern: RegExp): Promise<string> {
    for (;;) {
      const match = pattern.exec(this.output);
      if (match) return match[1] ?? match[0];
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  type(line: string): void {
    this.child.stdin!.write(`${line}\n`);
  }

  async end(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin!.end();
    await exited;
  }
}

describe('the Copilot CLI session a process holds', () => {
  const dir = mkdtempSync(join(tmpdir(), 'corral-copilot-'));
  const home = join(dir, 'copilot-home');
  const fakes: Fake[] = [];
  const fake = (env: Record<string, string> = {}, viaShell = false) => {
    const made = new Fake({ COPILOT_HOME: home, ...env }, viaShell);
    fakes.push(made);
    return made;
  };
  const record = (session: string) => join(home, 'session-state', session, 'events.jsonl');
  after(async () => {
    for (const made of fakes) await made.end();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is named by the file the agent process holds under its own pid, also from a process below it, and by no other', async () => {
    const first = fake();
    const second = fake();
    const firstSession = await first.saw(/ready (\S+)/);
    const secondSession = await second.saw(/ready (\S+)/);
    assert.equal(await copilotRecordOf(first.child.pid!, process.pid), record(firstSession));
    assert.equal(await copilotRecordOf(second.child.pid!, process.pid), record(secondSession), 'the other Copilot, its own session, though both share one home');

    const wrapped = fake({}, true);
    const wrappedSession = await wrapped.saw(/ready (\S+)/);
    assert.equal(await copilotRecordOf(wrapped.child.pid!, process.pid), record(wrappedSession), 'the native child below the loader holds it');

    assert.equal(await copilotRecordOf(first.child.pid!, second.child.pid!), null, 'a pid that is not below the pane process (a reused pid) names nothing');
  });

  it('refuses a file named after another pid: a process claiming another Copilot session holds nothing of its own', async () => {
    const owner = fake();
    const ownerSession = await owner.saw(/ready (\S+)/);
    const claimer = fake({ FAKE_HOLD_AS: String(owner.child.pid), FAKE_SESSION_DIR: join(home, 'session-state', ownerSession) });
    await claimer.saw(/ready (\S+)/);
    assert.equal(await copilotRecordOf(claimer.child.pid!, process.pid), null);
    assert.equal(await copilotRecordOf(owner.child.pid!, process.pid), record(ownerSession));
  });

  it('follows /clear to the new session, and of tabs held at once takes the one written last', async () => {
    const copilot = fake();
    const first = await copilot.saw(/ready (\S+)/);
    copilot.type('/clear');
    const cleared = await copilot.saw(/session (\S+)/);
    assert.notEqual(cleared, first);
    assert.equal(await copilotRecordOf(copilot.child.pid!, process.pid), record(cleared), 'the session let go is no longer held');

    copilot.type('/new');
    const tab = await copilot.saw(new RegExp(`session (?!${cleared})(\\S+)`));
    copilot.type('turn in the new tab');
    await copilot.saw(/answered 1 /);
    assert.equal(await copilotRecordOf(copilot.child.pid!, process.pid), record(tab));
    // The new tab's record written long ago: which was written last does not hang on the clock's grain.
    utimesSync(record(tab), 1, 1);
    copilot.type('/tab');
    copilot.type('turn in the first tab');
    await copilot.saw(/answered 2 /);
    assert.equal(await copilotRecordOf(copilot.child.pid!, process.pid), record(cleared), 'the tab written last');
    await copilot.end();
    assert.equal(await copilotRecordOf(copilot.child.pid!, process.pid), null, 'an ended process holds nothing');
  });
});
