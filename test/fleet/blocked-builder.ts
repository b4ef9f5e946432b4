// A fake Claude Code named "builder" on a fleet host's daemon, blocked on a permission form: the
// card the fleet's web tests look at (its head holds its name, its host, its reminder and its badge).
import type { CorralClient } from '../../src/client/index.ts';
import { waitFor } from '../../harness/wait.ts';
import { FAKE_AGENT } from '../helpers/agent-lab.ts';

export async function blockedBuilder(client: CorralClient, cwd: string, text: string, timeoutMs: number): Promise<void> {
  await client.call('pane.spawn', { command: process.execPath, args: [FAKE_AGENT], env: { CORRAL_AGENT: 'claude', FAKE_WORK_MS: '300' }, name: 'builder', cwd });
  await waitFor(async () => (await client.call('agent.get', { target: 'builder' })).rawState === 'idle', { what: 'builder idle', timeoutMs });
  await client.call('agent.prompt', { target: 'builder', text });
  await waitFor(async () => (await client.call('agent.get', { target: 'builder' })).state === 'blocked', { what: 'builder blocked', timeoutMs });
}
