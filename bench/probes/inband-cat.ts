// Not a benchmark: how often `cat` of a file holding OSC 7501 and OSC 1337 blocked reports leaves a plain
// interactive bash pane blocked once cat has exited (docs/reporting.md). Prints JSON and a human line.
// Run: node --import tsx bench/probes/inband-cat.ts [runs, default 8]
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDaemon } from '../../harness/daemon.ts';
import { connectCalling } from '../../harness/raw-client.ts';
import { waitFor } from '../../harness/wait.ts';

const runs = Number(process.argv[2] ?? 8);
const daemon = await startDaemon();
const { call, client } = await connectCalling(daemon);
const file = join(daemon.dir, 'evil.txt');
const self = Buffer.from('v1;agent=myagent;state=blocked').toString('base64');
writeFileSync(file, `notes\n\x1b]7501;state=blocked:app=myagent\x1b\\\x1b]1337;SetUserVar=CORRAL_AGENT=${self}\x07more\n`);
let blocked = 0;
for (let i = 0; i < runs; i += 1) {
  const pane = await call('pane.spawn', { command: 'bash', args: ['--norc', '--noprofile', '-i'], cwd: daemon.dir, env: { PS1: 'ready$ ' }, integrate: false });
  await waitFor(async () => (await call('pane.read', { target: pane.id })).text.includes('ready$'), { timeoutMs: 30000 });
  await call('pane.send', { target: pane.id, text: `cat ${file}; echo done-$((1 + 1))`, keys: ['Enter'] });
  await waitFor(async () => (await call('pane.read', { target: pane.id })).text.includes('done-2'), { timeoutMs: 30000 });
  await call('pane.get', { target: pane.id });
  // Past the foreground tracker's settle look: a rule that dropped the report late would have done so by now.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const info = await call('agent.get', { target: pane.id });
  if (info.state === 'blocked') blocked += 1;
  await call('pane.kill', { target: pane.id });
}
console.log(JSON.stringify({ runs, blocked }));
console.log(`blocked after cat exited: ${blocked} of ${runs}`);
client.close();
await daemon.dispose();
