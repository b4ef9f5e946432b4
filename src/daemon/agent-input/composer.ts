import { CorralError } from '../../protocol/errors.ts';
import type { ComposerMode } from '../../protocol/methods/agent-act.ts';
import type { AgentService } from '../agents/agent-service.ts';
import { keyBytes } from '../panes/keys.ts';
import type { PaneRecord } from '../panes/pane-record.ts';

/** How long the box may take to show itself emptied after its clear keys. */
const CLEAR_WAIT_MS = 2000;

/**
 * Makes the agent's input box ready for a prompt and answers the text to type. A box holding a draft
 * that Corral did not type (Qwen Code puts a cancelled prompt back after an Esc, issue 39) is refused
 * with `composer_not_empty` unless the request says what to do with it: `replace` empties it with the
 * manifest's clear keys and checks it emptied, `append` types after it with a space between. A box the
 * manifest cannot read is taken as it is.
 */
export async function prepareComposer(agents: AgentService, pane: PaneRecord, text: string, mode: ComposerMode | undefined): Promise<string> {
  const agent = agents.of(pane);
  const draft = agent.composer()?.draft ?? '';
  if (draft === '') return text;
  if (mode === 'append') return ` ${text}`;
  if (mode !== 'replace') {
    throw new CorralError(
      'composer_not_empty',
      `${agent.view().agent} in pane ${pane.label()} holds a draft in its input box (${JSON.stringify(clip(draft))}); nothing was typed: replace it (--replace, composer: "replace") or append to it (--append, composer: "append")`,
      { id: pane.id, draft },
    );
  }
  const keys = agent.composerClearKeys();
  if (keys === null) throw new CorralError('composer_not_empty', `the manifest of ${agent.view().agent} names no keys that empty its input box; clear it by hand`, { id: pane.id, draft });
  pane.write(keyBytes([...keys]));
  const left = await emptied(agents, pane);
  if (left !== '') {
    throw new CorralError('composer_not_empty', `the input box still holds ${JSON.stringify(clip(left))} after ${keys.join(' ')}; nothing was typed: clear it by hand`, { id: pane.id, draft: left, cleared: true });
  }
  return text;
}

/** How long a submitted prompt may stay drawn in the box before the reply goes anyway. */
const TAKEN_WAIT_MS = 1500;

/**
 * After a submitted prompt: resolves once the box no longer holds it (the program took it), or after
 * TAKEN_WAIT_MS. So a prompt sent right after this one does not find it still drawn and take it for a draft.
 */
export async function promptTaken(agents: AgentService, pane: PaneRecord): Promise<void> {
  if (agents.find(pane)?.composer() == null) return;
  await emptied(agents, pane, TAKEN_WAIT_MS);
}

/** Resolves with the box's draft once it reads empty, or with what it holds when the wait runs out. */
function emptied(agents: AgentService, pane: PaneRecord, waitMs = CLEAR_WAIT_MS): Promise<string> {
  const read = () => (pane.lifecycle === 'running' ? (agents.of(pane).composer()?.draft ?? '') : '');
  return new Promise((resolve) => {
    if (read() === '') return resolve('');
    const finish = () => {
      clearTimeout(cap);
      listener.dispose();
      resolve(read());
    };
    const listener = pane.terminal.onOutput(() => {
      if (read() === '') finish();
    });
    const cap = setTimeout(finish, waitMs);
  });
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
