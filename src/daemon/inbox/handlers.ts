import { CorralError } from '../../protocol/errors.ts';
import { AGENT_ANSWER } from '../../protocol/methods/agent-act.ts';
import { AGENT_FOCUS, PANE_FOCUS } from '../../protocol/methods/agent-query.ts';
import { INBOX_ACK, INBOX_LIST } from '../../protocol/methods/inbox.ts';
import type { DaemonCore } from '../agents/core.ts';
import type { EventHub } from '../events/event-hub.ts';
import { implement, type DaemonPart, type HandlerBinding } from '../rpc/handler.ts';
import type { PaneRegistry } from '../panes/pane-registry.ts';
import { Inbox } from './inbox.ts';

/**
 * The attention inbox, kept in `path`, and its methods; `acknowledgingOnAction` is the wrap the daemon
 * puts around every part's handlers, so acting on a pane acknowledges its items.
 */
export function startInbox(
  core: DaemonCore,
  hub: EventHub,
  path: string,
): DaemonPart & { readonly inbox: Inbox; acknowledgingOnAction(bindings: readonly HandlerBinding[]): HandlerBinding[] } {
  const inbox = new Inbox(path, hub, core.agents, core.log, (paneId) => core.registry.isRemoving(paneId));
  return {
    inbox,
    handlers: inboxHandlers(inbox),
    acknowledgingOnAction: (bindings) => acknowledgingOnAction(bindings, core.registry, inbox),
    dispose: () => inbox.dispose(),
  };
}

function inboxHandlers(inbox: Inbox): HandlerBinding[] {
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
function acknowledgingOnAction(bindings: readonly HandlerBinding[], registry: PaneRegistry, inbox: Inbox): HandlerBinding[] {
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
