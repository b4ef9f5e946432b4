import { closeSync, openSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { AGENT_GET } from '../../protocol/methods/agent.ts';
import { PANE_RECORD, PANE_RECORD_ENDED, PANE_RECORDED, type RecordEndReason } from '../../protocol/methods/record.ts';
import type { AsciicastHeader, CastEvent } from '../../terminal/asciicast.ts';
import { ClientError, withDaemon } from '../with-daemon.ts';
import { globalsOf } from '../globals.ts';
import { printJson } from '../output.ts';
import { oneTarget } from '../targets.ts';
import { positiveDuration } from './parse.ts';

type Ending = { reason: RecordEndReason | 'stopped' | 'connection_closed'; message?: string };

/** `corral-NAME-20260102-150405.cast` in the current folder. */
function defaultFile(label: string, at: number): string {
  const stamp = new Date(at).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return resolve(`corral-${label.replace(/[^A-Za-z0-9._-]/g, '_')}-${stamp}.cast`);
}

function castLine([seconds, code, data]: CastEvent): string {
  return `[${seconds.toFixed(6)}, ${JSON.stringify(code)}, ${JSON.stringify(data)}]\n`;
}

/**
 * `corral pane record`: writes the pane as an asciicast v2 file while it runs, line by line, so the file
 * is whole at any moment; ends on SIGINT or SIGTERM, after --for, or when the pane exits.
 */
export function registerRecordCommand(pane: Command): void {
  pane
    .command('record')
    .description('record the pane as an asciicast v2 file (asciinema plays it, `corral detect replay` reads it) until C-c, --for or its exit')
    .argument('<target>', 'pane id or name, or @WORKSPACE or a pattern that names exactly one pane')
    .option('--out <file>', 'the file to write (default: corral-NAME-TIME.cast in the current folder)')
    .option('--input', 'also record what is typed into the pane (off by default: input may hold secrets)')
    .option('--for <duration>', 'stop after this long (90s, 5m; a plain number is ms)', positiveDuration)
    .action(async (target: string, options: { out?: string; input?: boolean; for?: number }, cmd: Command) => {
      const { socket, json } = globalsOf(cmd);
      const summary = await withDaemon(socket, async (client) => {
        const id = await oneTarget(client, target, 'record');
        const agent = await client.call(AGENT_GET, { target: id }).then((info) => info.agent, () => null);
        // Chunks may come before the reply (the first redraw does): they wait for the header. This
        // connection records one pane, so every chunk on it is that pane's.
        const early: { code: 'o' | 'i'; data: string; at: number }[] = [];
        let write: ((chunk: { code: 'o' | 'i'; data: string; at: number }) => void) | null = null;
        let finish!: (ending: Ending) => void;
        const ended = new Promise<Ending>((resolve) => (finish = resolve));
        const subscriptions = [
          client.onNotification(PANE_RECORDED, (chunk) => (write ? write(chunk) : early.push(chunk))),
          client.onNotification(PANE_RECORD_ENDED, (end) => finish({ reason: end.reason })),
          client.onClose((error) => finish({ reason: 'connection_closed', message: error.message })),
        ];
        const stop = () => finish({ reason: 'stopped' });
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
        const timer = options.for !== undefined ? setTimeout(stop, options.for) : null;
        try {
          const started = await client.call(PANE_RECORD, { target: id, ...(options.input ? { input: true } : {}) });
          const file = options.out !== undefined ? resolve(options.out) : defaultFile(started.name ?? started.id, started.startedAt);
          const fd = openSync(file, 'w', 0o600);
          try {
            const header: AsciicastHeader = {
              version: 2,
              width: started.cols,
              height: started.rows,
              timestamp: Math.floor(started.startedAt / 1000),
              env: { TERM: 'xterm-256color' },
              corral: { ...(agent ? { agent } : {}), timing: 'recorded' },
            };
            writeSync(fd, `${JSON.stringify(header)}\n`);
            let events = 0;
            let last = 0;
            write = (chunk) => {
              // Times never go back, whatever the wall clock does.
              last = Math.max(last, (chunk.at - started.startedAt) / 1000);
              writeSync(fd, castLine([last, chunk.code, chunk.data]));
              events += 1;
            };
            for (const chunk of early.splice(0)) write(chunk);
            const ending = await ended;
            return { ...ending, file, events, seconds: last, id: started.id, name: started.name };
          } finally {
            closeSync(fd);
          }
        } finally {
          if (timer) clearTimeout(timer);
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          for (const subscription of subscriptions) subscription.dispose();
        }
      });
      if (summary.reason === 'behind') {
        throw new RecordingBehind(`the recording of ${summary.id} fell behind the pane's output and was ended; ${summary.file} holds what came before`);
      }
      if (summary.reason === 'connection_closed') {
        throw new ClientError('connection_closed', `lost the daemon while recording ${summary.id}: ${summary.message}; ${summary.file} holds what came before`);
      }
      if (json) return printJson({ file: summary.file, events: summary.events, seconds: summary.seconds, ended: summary.reason });
      const why = summary.reason === 'stopped' ? '' : ` (the pane ${summary.reason === 'exited' ? 'exited' : 'was removed'})`;
      process.stderr.write(`recorded ${summary.seconds.toFixed(1)} s of ${summary.name ?? summary.id} to ${summary.file}${why}\n`);
    });
}

/** The daemon ended the recording because this recorder did not keep up with the pane's output. */
class RecordingBehind extends Error {
  readonly code = 'recording_behind';
}
