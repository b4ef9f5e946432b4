import assert from 'node:assert/strict';
import { readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { makeTempDir, startDaemon } from '../../harness/daemon.ts';
import { RawClient } from '../../harness/raw-client.ts';
import { waitFor } from '../../harness/wait.ts';

/** Each open descriptor of a process and what it points at. */
function descriptors(pid: number): Record<string, string> {
  const found: Record<string, string> = {};
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      found[fd] = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      // closed between the listing and the read
    }
  }
  return found;
}

function childrenOf(parent: number): Array<{ pid: number; argv: string[] }> {
  const children: Array<{ pid: number; argv: string[] }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== parent) continue;
      children.push({ pid: Number(entry), argv: readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').slice(0, -1) });
    } catch {
      // gone
    }
  }
  return children;
}

const NOTIFY_MARK = '31.4159';

describe('each child of the daemon holds only its own terminal', () => {
  it('five panes and a notify command see nothing but their own 0, 1 and 2', async () => {
    const dir = makeTempDir();
    const config = join(dir, 'notify.toml');
    writeFileSync(config, `[notify]\ncommand = ["sleep", "${NOTIFY_MARK}"]\n`);
    const daemon = await startDaemon({ args: ['--config', config] });
    const client = await RawClient.connect(daemon.socket);
    try {
      let id = 1;
      const call = async (method: string, params: unknown) => {
        const reply = await client.call(id++, method, params);
        assert.ok(!reply.error, JSON.stringify(reply.error));
        return reply.result;
      };
      const panes: Array<{ id: string; pid: number }> = [];
      for (let i = 0; i < 5; i += 1) {
        const pane = await call('pane.spawn', { command: 'sleep', args: ['300'], cwd: daemon.dir });
        panes.push({ id: pane.id, pid: pane.pid });
      }
      // A self report of blocked is an attention event, which runs the notify command.
      const report = Buffer.from('v1;agent=custom;state=blocked').toString('base64');
      await call('pane.spawn', {
        command: '/bin/sh',
        args: ['-c', `printf '\\033]1337;SetUserVar=CORRAL_AGENT=${report}\\007'; sleep 300`],
        cwd: daemon.dir,
      });
      let notify: { pid: number } | undefined;
      await waitFor(() => (notify = childrenOf(daemon.pid).find((child) => child.argv[1] === NOTIFY_MARK)) !== undefined, {
        what: 'the notify command to run',
      });

      const seen: Record<string, Record<string, string>> = {};
      for (const [index, pane] of panes.entries()) {
        const fds = descriptors(pane.pid);
        seen[`pane ${index + 1}`] = fds;
        const tty = fds['0'];
        assert.match(tty ?? '', /^\/dev\/pts\/\d+$/, `pane ${index + 1} has its terminal on 0`);
        assert.deepEqual(fds, { 0: tty, 1: tty, 2: tty }, `pane ${index + 1} holds only its own terminal`);
      }
      const fds = descriptors(notify!.pid);
      seen.notify = fds;
      assert.deepEqual(fds, { 0: '/dev/null', 1: '/dev/null', 2: '/dev/null' }, 'the notify command holds only /dev/null');
      if (process.env.CORRAL_PRINT_FDS) console.log(JSON.stringify(seen, null, 1));
    } finally {
      client.close();
      await daemon.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
