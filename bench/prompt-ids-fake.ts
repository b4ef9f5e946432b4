// Prompt ids the daemon publishes for one dialog (issue 39): the fake agent's Claude Code 2.1.332 trust
// dialog, annotated by OSC 7501 kind=permission and by a blocked hook report, then answered by choice
// id (Down, Enter), through a real daemon. Prints the ids per dialog, the kind after the hints, and each
// answer's reply. Run: node --import tsx bench/prompt-ids-fake.ts [RUNS]   (default 5)
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { startDaemon } from '../harness/daemon.ts';
import { connectCalling } from '../harness/raw-client.ts';
import { waitFor } from '../harness/wait.ts';
import { DaemonConnection } from '../src/cli/with-daemon.ts';
import { EVENT } from '../src/protocol/notifications.ts';
import { EVENTS_SUBSCRIBE } from '../src/protocol/methods/events.ts';

const FAKE = fileURLToPath(new URL('../test/fixtures/agents/fake-claude.mjs', import.meta.url));

const daemon = await startDaemon({});
const { client, call } = await connectCalling(daemon);
const runs = Number(process.argv[2] ?? 5);
const ids: number[] = [];
const kinds: string[] = [];
const replies: string[] = [];
for (let run = 0; run < runs; run++) {
  const hint = join(daemon.dir, `hint-${run}`);
  const pane = await call('pane.spawn', { command: process.execPath, args: [FAKE], cwd: daemon.dir, env: { CORRAL_AGENT: 'claude', FAKE_WORK_MS: '300', FAKE_HINT: hint } });
  await waitFor(async () => (await call('agent.get', { target: pane.id })).rawState === 'idle', { what: 'idle' });
  const sub = await DaemonConnection.connect(daemon.socket);
  const got: any[] = [];
  sub.onNotification(EVENT, (e: any) => got.push(e));
  await sub.call(EVENTS_SUBSCRIBE, { filter: `pane:${pane.id}` });
  await call('agent.prompt', { target: pane.id, text: 'trust' });
  await waitFor(async () => (await call('agent.get', { target: pane.id })).prompt?.choices?.length >= 2, { what: 'trust dialog' });
  writeFileSync(hint, 'osc');
  await waitFor(async () => (await call('pane.get', { target: pane.id })).title?.endsWith('(hints 1)'), { what: 'osc' });
  writeFileSync(hint, 'hook');
  await waitFor(async () => (await call('pane.get', { target: pane.id })).title?.endsWith('(hints 2)'), { what: 'hook' });
  const before = (await call('agent.get', { target: pane.id })).prompt;
  kinds.push(before.kind);
  const reply = await call('agent.answer', { target: pane.id, promptId: before.id, choice: 'yes-i-trust-this-folder' });
  replies.push(JSON.stringify({ outcome: reply.outcome, state: reply.state, prompt: reply.prompt ? `${reply.prompt.id} ${reply.prompt.kind}` : null }));
  await waitFor(async () => ((await call('pane.read', { target: pane.id })).text as string).includes('Trusted.'), { what: 'trusted' });
  const promptIds = new Set(got.flatMap((e: any) => (e.data?.prompt ? [e.data.prompt.id] : [])));
  if (reply.prompt) promptIds.add(reply.prompt.id);
  ids.push(promptIds.size);
  sub.dispose();
  await call('pane.kill', { target: pane.id });
}
console.log(JSON.stringify({ runs, idsPerDialog: ids, kindAfterHints: kinds, replies }));
client.close();
await daemon.dispose();
