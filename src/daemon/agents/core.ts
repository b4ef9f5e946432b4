import type { Logger } from '../logger.ts';
import type { PaneRegistry } from '../panes/pane-registry.ts';
import type { AgentService } from './agent-service.ts';

/** What every feature of the daemon is started on: the panes, their agents and the log. */
export interface DaemonCore {
  readonly registry: PaneRegistry;
  readonly agents: AgentService;
  readonly log: Logger;
}
