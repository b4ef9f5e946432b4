import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { useDaemon } from '../../helpers/session.ts';

const REPORTER = fileURLToPath(new URL('../../fixtures/agents/inband-reporter.mjs', import.meta.url));
const SELF_REPORT = `\x1b]1337;SetUserVar=CORRAL_AGENT=${Buffer.from('v1;agent=myagent;state=blocked').toString('base64')}\x07`;
const PROGRAM_STATUS = '\x1b]7501;state=blocked:app=myagent\x1b\\';

/**
 * In-band reports under the default `inband = "group"`, in a plain interactive bash: a report is
 * bound to the process group that held the terminal when its bytes were parsed, and a file printed
 * by `cat` moves nothing once cat has exited.
 */
describe('in-band reports bound to the foreground group', () => {
  const session = useDaemon();
  const { call } = session;

  const shell = async () => {
    const pane = await call('pane.spawn', { command: 'bash', args: ['--norc', '--noprofile', '-i'], cwd: session.daemon.dir, env: { PS1: 'ready$ ' }, integrate: false });
    await session.screenContains(pane.id, 'ready$');
    return pane;
  };

  /**
   * Runs `line` in the shell and returns once `marker`, printed by the shell itself after the line's
   * programs, is on screen: every byte before it has been parsed. Reading the pane then reads its
   * foreground afresh, which is the shell again.
   */
  const run = async (pane: { id: string; pid: number }, line: string, marker: string) => {
    await call('pane.send', { target: pane.id, text: `${line}; echo ${marker}-$((1 + 1))`, keys: ['Enter'] });
    await session.screenContains(pane.id, `${marker}-2`);
    const got = await call('pane.get', { target: pane.id });
    assert.equal(got.process?.pgid, pane.pid, 'the shell holds the terminal again');
  };

  it('cat of a file holding an OSC 7501 and an OSC 1337 report leaves a plain bash pane unblocked once cat exits', async () => {
    // Before: blocked, agent myagent, source report:osc1337 (4 of 4 runs).
    const file = join(session.daemon.dir, 'evil.txt');
    writeFileSync(file, `notes\n${PROGRAM_STATUS}${SELF_REPORT}more notes\n`);
    const pane = await shell();
    await run(pane, `cat ${file}`, 'cat-done');
    const info = await call('agent.get', { target: pane.id });
    assert.equal(info.state, 'unknown', JSON.stringify(info));
    assert.equal(info.agent, null);
    await call('pane.kill', { target: pane.id });
  });

  it('a report the shell prints itself at its prompt is refused as inband_unbound', async () => {
    const pane = await shell();
    await run(pane, `printf '${SELF_REPORT.replace('\x1b', '\\033').replace('\x07', '\\a')}'`, 'printed');
    const explain = await call('agent.explain', { target: pane.id });
    assert.equal(explain.agent.state, 'unknown', JSON.stringify(explain.agent));
    assert.deepEqual(
      explain.arbiter.rejections.map((r: any) => [r.source, r.reason]),
      [['osc1337', 'inband_unbound']],
    );
    await call('pane.kill', { target: pane.id });
  });

  it('an agent-like program that stays in the foreground has its reports honoured until it leaves', async () => {
    const pane = await shell();
    await call('pane.send', { target: pane.id, text: `${process.execPath} ${REPORTER} myagent; echo reporter-left-$((1 + 1))`, keys: ['Enter'] });
    await session.screenContains(pane.id, 'reporter waiting');
    const held = await call('pane.get', { target: pane.id });
    assert.notEqual(held.process?.pgid, pane.pid, 'the reporter holds the terminal in a group of its own');
    const info = await session.agentUntil(pane.id, (i) => i.state === 'blocked', 'the reported blocked state');
    assert.equal(info.agent, 'myagent');
    assert.match(info.source, /^report:osc(1337|7501)$/);
    assert.deepEqual((await call('agent.explain', { target: pane.id })).arbiter.rejections, []);

    await call('pane.send', { target: pane.id, keys: ['Enter'] });
    await session.screenContains(pane.id, 'reporter-left-2');
    assert.equal((await call('pane.get', { target: pane.id })).process?.pgid, pane.pid, 'the shell holds the terminal again');
    const after = await call('agent.get', { target: pane.id });
    assert.equal(after.state, 'unknown', JSON.stringify(after));
    assert.equal(after.agent, null);
    await call('pane.kill', { target: pane.id });
  });
});
