import { CorralError } from '../../protocol/errors.ts';
import { AGENT_ANSWER } from '../../protocol/methods/agent-act.ts';
import { AGENT_FOCUS, PANE_FOCUS } from '../../protocol/methods/agent-query.ts';
import { INBOX_ACK, INBOX_LIST } from '../../protocol/methods/inbox.ts';
import { implement, type HandlerBinding } from '../rpc/handler.ts';
import type { PaneRegistry } from '../panes/pane-registry.ts';
import type { Inbox } from './inbox.ts';

export function inboxHandlers(inbox: Inbox): HandlerBinding[] {
  return [
    implement(INBOX_LIST, () => ({ items: inbox.list() })),
    implement(INBOX_ACK, ({ ids, all }) => {
      if ((ids === undefined) === (all !== true)) throw new CorralError('invalid_params', 'give "ids" or "all": true, not both and not neither', { field: 'ids' });
      return { acknowledged: inbox.acknowledge(all === true ? 'all' : ids!) };
    }),
  ];
}

/** The methods by which a person acts on a pane: once one succeeds, the pane's inbox items are acknowledged. */
const ACTING = new Set<string>([AGENT_FOCUS.name, PANE_FOCUS.name, AGENT_ANSWER.name]);

/** Wraps focus and answer so that acting on a pane acknowledges its items (their own handlers stay as they are). */
export function acknowledgingOnAction(bindings: readonly HandlerBinding[], registry: PaneRegistry, inbox: Inbox): HandlerBinding[] {
  return bindings.map((binding) => {
    if (!ACTING.has(binding.method.name)) return binding;
    return {
      method: binding.method,
      handle: async (params, context) => {
        const result = await binding.handle(params, context);
        const target = (params as { target: string }).target;
        try {
          inbox.acknowledgePane(registry.resolve(target).id);
        } catch {
          // the pane went away meanwhile: its removal acknowledged its items
        }
        return result;
      },
    };
  });
}
