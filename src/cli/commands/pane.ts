import { InvalidArgumentError, type Command } from 'commander';
import {
  PANE_GET,
  PANE_KILL,
  PANE_RESPAWN,
  PANE_LIST,
  PANE_READ,
  PANE_RESIZE,
  PANE_SEND,
  PANE_SPAWN,
  type PaneDetail,
  type PaneInfo,
} from '../../protocol/methods/pane.ts';
import { withDaemon, type DaemonConnection } from '../with-daemon.ts';
import { forEachTarget, RUNNING, STOPPED } from '../targets.ts';
import { globalsOf } from '../globals.ts';
import { printFields, printJson, printTable, printText } from '../output.ts';
import { collect, positiveInt } from './parse.ts';
import { isKeyName } from '../../terminal/keys.ts';
import { UsageError } from '../print-error.ts';

/**
 * tmux-style words in order: a word that names a key (Enter, C-c, Up; not a single character, which
 * types itself anyway) is that key, any other word is text. Each run of text followed by its keys is one
 * pane.send, so the pane gets them in the order given.
 */
export function sendsOfWords(words: string[]): { text: string | undefined; keys: string[] }[] {
  const sends: { text: string | undefined; keys: string[] }[] = [];
  for (const word of words) {
    const last = sends.at(-1);
    if (word.length > 1 && isKeyName(word)) {
      if (last) last.keys.push(word);
      else sends.push({ text: undefined, keys: [word] });
    } else if (last && last.keys.length === 0) {
      last.text = (last.text ?? '') + word;
    } else {
      sends.push({ text: word, keys: [] });
    }
  }
  return sends;
}

function envPair(value: string, previous: Record<string, string> | undefined): Record<string, string> {
  const eq = value.indexOf('=');
  if (eq < 1) throw new InvalidArgumentError('expected KEY=VALUE');
  return { ...previous, [value.slice(0, eq)]: value.slice(eq + 1) };
}

function exitText(pane: PaneInfo): string {
  if (pane.state === 'running') return pane.recovered ? 'running (recovered)' : 'running';
  if (pane.state === 'lost') {
    const last = pane.previous;
    return last?.agent ? `lost (${last.agent} ${last.state}${last.session ? `, session ${last.session}` : ''})` : 'lost';
  }
  return pane.signal !== null ? `exited (signal ${pane.signal})` : `exited (${pane.exitCode ?? '?'})`;
}

function commandLine(pane: PaneDetail): string {
  return [pane.command, ...pane.args].join(' ');
}

function printDetail(detail: PaneDetail): void {
  const process = detail.process;
  printFields([
    ['id', detail.id],
    ['name', detail.name ?? '-'],
    ['state', exitText(detail)],
    ['command', commandLine(detail)],
    ['cwd', detail.cwd],
    ['pid', String(detail.pid)],
    ['size', `${detail.cols}x${detail.rows}`],
    ['title', detail.title ?? '-'],
    ['foreground', process ? `pgid ${process.pgid} pid ${process.pid} ${process.argv.join(' ') || process.exe || '?'}` : '-'],
    ['agent hint', process?.agentHint ?? '-'],
  ]);
}

export function registerPaneCommands(program: Command): void {
  const pane = program.command('pane').description('spawn, inspect, drive and kill panes');

  pane
    .command('spawn')
    .description('start CMD on a new pane; prints its id')
    .usage('[options] -- CMD [ARGS...]')
    .argument('<command>', 'program to run')
    .argument('[args...]', 'its arguments (put -- before CMD when they start with -)')
    .option('--name <name>', 'a unique name usable wherever an id is')
    .option('--workspace <w>', 'the workspace to put it in, created on first use (default w1); `@W` targets all its panes')
    .option('--cwd <dir>', "working folder (default: the current folder; the daemon's home folder when its config says use_caller = false)")
    .option('--cols <n>', 'columns (default 120)', positiveInt)
    .option('--rows <n>', 'rows (default 32)', positiveInt)
    .option('--env <KEY=VALUE>', 'extra environment variable, repeatable', envPair)
    .option('--no-integrate', "start an agent without Corral's hooks for this launch (docs/reporting.md)")
    .action(async (command: string, args: string[], options, cmd: Command) => {
      const { daemon, json } = globalsOf(cmd);
      const params = {
        command,
        args,
        ...(options.cwd !== undefined ? { cwd: (await import('node:path')).resolve(options.cwd as string) } : {}),
        env: (options.env as Record<string, string> | undefined) ?? {},
        // The daemon looks the command up in this PATH and starts it in this folder (unless --cwd, or
        // `[panes] use_caller = false` in its config).
        caller: { ...(process.env.PATH !== undefined ? { path: process.env.PATH } : {}), cwd: process.cwd() },
        ...(options.name !== undefined ? { name: options.name as string } : {}),
        ...(options.workspace !== undefined ? { workspace: options.workspace as string } : {}),
        ...(options.cols !== undefined ? { cols: options.cols as number } : {}),
        ...(options.rows !== undefined ? { rows: options.rows as number } : {}),
        ...(options.integrate === false ? { integrate: false } : {}),
      };
      const info = await withDaemon(daemon, (client) => client.call(PANE_SPAWN, params));
      if (json) printJson(info);
      else printText(info.id);
    });

  pane
    .command('list')
    .description('every pane, running or exited')
    .action(async (_options, cmd: Command) => {
      const { daemon, json } = globalsOf(cmd);
      const { panes } = await withDaemon(daemon, (client) => client.call(PANE_LIST, {}));
      if (json) return printJson(panes);
      printTable(
        ['ID', 'NAME', 'STATE', 'PID', 'SIZE', 'COMMAND'],
        panes.map((p) => [p.id, p.name ?? '-', exitText(p), String(p.pid), `${p.cols}x${p.rows}`, p.command]),
      );
    });

  pane
    .command('get')
    .description('one pane with its foreground process')
    .argument('<target>', 'pane id or name, @WORKSPACE or a pattern (each pane in turn)')
    .action(async (target: string, _options, cmd: Command) => {
      const { daemon, json } = globalsOf(cmd);
      await forEachTarget(daemon, target, json, (client, id) => client.call(PANE_GET, { target: id }), printDetail);
    });

  pane
    .command('kill')
    .description('end the pane process group (SIGHUP, then SIGKILL) and remove the pane')
    .argument('<target>', 'pane id or name, @WORKSPACE or a pattern (each pane in turn)')
    .action(async (target: string, _options, cmd: Command) => {
      const { daemon, json } = globalsOf(cmd);
      await forEachTarget(daemon, target, json, (client, id) => client.call(PANE_KILL, { target: id }), (info) => printText(info.id));
    });

  pane
    .command('respawn')
    .description("start a lost or exited pane again: same id, name, cwd and size; resumes the agent's conversation when its manifest has a resume form and a session id is known")
    .argument('<target>', 'pane id or name, @WORKSPACE or a pattern (each lost or exited pane in turn)')
    .option('--fresh', 'start the plain command, without resuming')
    .action(async (target: string, options: { fresh?: boolean }, cmd: Command) => {
      const { daemon, json } = globalsOf(cmd);
      await forEachTarget(
        daemon,
        target,
        json,
        (client, id) => client.call(PANE_RESPAWN, { target: id, ...(options.fresh ? { fresh: true } : {}) }),
        (info) => printText(info.resumed ? `${info.id} (resumed session ${info.resumed})` : info.id),
        { states: STOPPED },
      );
    });

  pane
    .command('resize')
    .description('resize the pane')
    .argument('<target>', 'pane id or name, @WORKSPACE or a pattern (each running pane in turn)')
    .argument('<cols>', 'columns', positiveInt)
    .argument('<rows>', 'rows', positiveInt)
    .action(async (target: string, cols: number, rows: number, _options, cmd: Command) => {
      const { daemon, json } = globalsOf(cmd);
      // Without --json a resize prints nothing, for one pane or a group.
      await forEachTarget(daemon, target, json, (client, id) => client.call(PANE_RESIZE, { target: id, cols, rows }), () => {}, { states: RUNNING });
    });

  pane
    .command('send')
    .description('type text, then named keys (Enter, Escape, Up, Down, Tab, C-c, ...); tmux-style words: `send T \'make test\' Enter`')
    .argument('<target>', 'pane id or name, @WORKSPACE or a pattern (each running pane in turn)')
    .argument('[words...]', 'tmux-style: a word that names a key is that key, any other word is typed as text, in order')
    .option('--text <text>', 'text to type as is (before the words)')
    .option('--keys <names...>', 'key names, sent after the text')
    .option('--key <name>', 'one key name, repeatable', collect, [])
    .action(async (target: string, words: string[], options, cmd: Command) => {
      const { daemon, json } = globalsOf(cmd);
      const keys = [...((options.keys as string[] | undefined) ?? []), ...(options.key as string[])];
      if (words.length > 0 && keys.length > 0) throw new UsageError('give keys as trailing words or with --keys/--key, not both');
      const sends = words.length > 0 ? sendsOfWords(words) : [{ text: undefined, keys }];
      if (options.text !== undefined) sends[0] = { ...sends[0]!, text: (options.text as string) + (sends[0]!.text ?? '') };
      const sendAll = async (client: DaemonConnection, id: string) => {
        let bytes = 0;
        for (const send of sends) {
          const params = { target: id, ...(send.text !== undefined ? { text: send.text } : {}), ...(send.keys.length > 0 ? { keys: send.keys } : {}) };
          bytes += (await client.call(PANE_SEND, params)).bytes;
        }
        return { bytes };
      };
      // Without --json a send prints nothing, for one pane or a group.
      await forEachTarget(daemon, target, json, sendAll, () => {}, { states: RUNNING });
    });

  pane
    .command('read')
    .description('print the screen (or the scrollback) as text; works on exited panes')
    .argument('<target>', 'pane id or name, @WORKSPACE or a pattern (each pane in turn)')
    .option('--scrollback', 'read the scrollback instead of the screen')
    .option('--lines <n>', 'only the last N lines with text', positiveInt)
    .option('--keep-blank', 'keep the blank rows below the last row with text (left out by default)')
    .option('--ansi', 'keep colours and attributes as escape sequences')
    .action(async (target: string, options, cmd: Command) => {
      const { daemon, json } = globalsOf(cmd);
      const base = {
        source: options.scrollback ? ('scrollback' as const) : ('screen' as const),
        ...(options.keepBlank ? {} : { trim: true }),
        ...(options.lines !== undefined ? { lines: options.lines as number } : {}),
        ...(options.ansi ? { ansi: true } : {}),
      };
      // The daemon sends the scrollback in pages, newest first: without --lines, read back to the start.
      const readOne = async (client: DaemonConnection, id: string) => {
        const params = { target: id, ...base };
        const first = await client.call(PANE_READ, params);
        const pages = [first.text];
        let offset = first.text === '' ? 0 : first.text.split('\n').length;
        for (let page = first; params.source === 'scrollback' && options.lines === undefined && page.more === true; ) {
          page = await client.call(PANE_READ, { ...params, offset });
          pages.unshift(page.text);
          offset += page.text.split('\n').length;
        }
        return options.lines === undefined && params.source === 'scrollback' ? { ...first, text: pages.join('\n'), more: false } : first;
      };
      await forEachTarget(daemon, target, json, readOne, (result) => printText(result.text));
    });
}
