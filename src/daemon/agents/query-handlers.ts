import { MAX_READ_LINES } from '../../protocol/methods/pane.ts';
import { CorralError } from '../../protocol/errors.ts';
import { AGENT_FOCUS, AGENT_LIST, AGENT_READ, PANE_FOCUS } from '../../protocol/methods/agent-query.ts';
import type { AgentService } from './agent-service.ts';
import { implement, type HandlerBinding } from '../rpc/handler.ts';
import type { PaneRegistry } from '../panes/pane-registry.ts';
import { filterAgents, rollup } from './list-view.ts';
import { regionRows } from './screen-region.ts';
import { fittedPage } from '../panes/scrollback-page.ts';

/** The agent read surface: list with rollup, read (never marks seen), and focus (marks seen). */
export function agentQueryHandlers(registry: PaneRegistry, agents: AgentService): HandlerBinding[] {
  const focus = ({ target }: { target: string }) => {
    const pane = registry.resolve(target);
    agents.of(pane).markSeen(); // published through the agent change flow like any other change
    return agents.info(pane);
  };

  return [
    implement(AGENT_LIST, ({ filter = {}, all = false }) => {
      const seq = agents.stateChangeSeq;
      const listed = registry.list().map((pane) => agents.info(pane)).filter((info) => all || info.agent !== null);
      const infos = filterAgents(listed, filter);
      return { seq, agents: infos, workspaces: rollup(infos) };
    }),

    implement(AGENT_READ, async ({ target, source = 'screen', lines, ansi, trim, region }) => {
      const pane = await registry.resolveReplayed(target);
      const snapshot = pane.terminal.snapshot();
      const seenBy = { title: snapshot.title, progress: snapshot.progress };
      if (region !== undefined) {
        if (source === 'scrollback' || ansi) throw new CorralError('invalid_params', '"region" cuts the screen as detection reads it: plain text of source screen or detection', { field: 'region' });
        const rows = regionRows(snapshot, region);
        const shown = lines !== undefined ? rows.slice(-lines) : rows;
        return { source, text: shown.join('\n'), cols: snapshot.cols, rows: snapshot.rows, ...seenBy, ...(source === 'detection' ? { cursor: snapshot.cursor } : {}) };
      }
      if (source === 'detection') {
        if (ansi) throw new CorralError('invalid_params', 'detection reads plain text; "ansi" applies to screen and scrollback', { field: 'ansi' });
        const rows = trim ? snapshot.lines.slice(0, textRowCount(snapshot.lines)) : snapshot.lines;
        const shown = lines !== undefined ? rows.slice(-lines) : rows;
        return { source, text: shown.join('\n'), cols: snapshot.cols, rows: snapshot.rows, ...seenBy, cursor: snapshot.cursor };
      }
      // The scrollback is capped like pane.read's page (which pages back with offset), and fits the frame as it does.
      if (source === 'scrollback') {
        const { text } = fittedPage((n) => pane.terminal.read({ source, lines: n, ...(ansi !== undefined ? { ansi } : {}) }), Math.min(lines ?? MAX_READ_LINES, MAX_READ_LINES));
        return { source, text, cols: pane.terminal.cols, rows: pane.terminal.rows, ...seenBy };
      }
      const text = pane.terminal.read({ source, ...(lines !== undefined ? { lines } : {}), ...(ansi !== undefined ? { ansi } : {}), ...(trim ? { trim } : {}) });
      return { source, text, cols: pane.terminal.cols, rows: pane.terminal.rows, ...seenBy };
    }),

    implement(AGENT_FOCUS, focus),
    implement(PANE_FOCUS, focus),
  ];
}

/** Rows up to the last one with text. */
function textRowCount(rows: readonly string[]): number {
  let end = rows.length;
  while (end > 0 && rows[end - 1]!.trim() === '') end -= 1;
  return end;
}
