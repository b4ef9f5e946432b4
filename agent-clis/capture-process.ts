// The pieces of a recording session that every recorder shares: the processes a CLI leaves, the
// mock model child, typing like a person, and the text helpers of screens.md.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as NodePty from 'node-pty';
import { sleep, type ScreenWatch } from './screen-watch.ts';

const KILL_GRACE_MS = 2000;
const MOCK_LIFETIME_S = 600;
const here = dirname(fileURLToPath(import.meta.url));

/** One labelled moment of a recording, as labels.json keeps it (docs/captures.md). */
export interface Label {
  file: string;
  bytes: number;
  /** Seconds since spawn when the label was taken. */
  time: number;
  agent: string;
  version: string;
  cols: number;
  rows: number;
  label: string;
  expect: { state: 'idle' | 'working' | 'blocked' };
}

export interface ProcRow {
  pid: number;
  ppid: number;
  pgrp: number;
  comm: string;
  exe: string;
  argv: string[];
}

function readStat(pid: number): { ppid: number; pgrp: number; tpgid: number; comm: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    return { comm: stat.slice(stat.indexOf('(') + 1, close), ppid: Number(fields[1]), pgrp: Number(fields[2]), tpgid: Number(fields[5]) };
  } catch {
    return null;
  }
}

function allPids(): number[] {
  return readdirSync('/proc').filter((n) => /^\d+$/.test(n)).map(Number);
}

/** Every process in the PTY's foreground process group. */
export function foregroundGroup(leader: number): ProcRow[] {
  const tpgid = readStat(leader)?.tpgid ?? -1;
  const rows: ProcRow[] = [];
  for (const pid of allPids()) {
    const stat = readStat(pid);
    if (!stat || stat.pgrp !== tpgid) continue;
    let exe = '';
    let argv: string[] = [];
    try { exe = readlinkSync(`/proc/${pid}/exe`); } catch { /* gone */ }
    try { argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean); } catch { /* gone */ }
    rows.push({ pid, ppid: stat.ppid, pgrp: stat.pgrp, comm: stat.comm, exe, argv });
  }
  return rows;
}

/** Processes whose environment names our throwaway HOME: the CLI and anything it left behind. */
export function processesUsing(home: string): number[] {
  const marker = `HOME=${home}`;
  return allPids().filter((pid) => {
    if (pid === process.pid) return false;
    try {
      return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(marker);
    } catch {
      return false;
    }
  });
}

export async function killAll(pids: number[]): Promise<void> {
  for (const pid of pids) { try { process.kill(pid, 'SIGTERM'); } catch { /* gone */ } }
  await sleep(KILL_GRACE_MS);
  for (const pid of pids) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } }
}

export function startMock(logFile: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [...process.execArgv, join(here, 'mock-model.ts'), String(MOCK_LIFETIME_S), logFile], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolvePort, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /PORT (\d+)/.exec(out);
      if (m) resolvePort({ child, port: Number(m[1]) });
    });
    child.once('exit', (code) => reject(new Error(`mock_model_exited: code ${code}`)));
  });
}

/** Types like a person: one character at a time, so TUIs do not treat it as a paste. */
export async function type(p: NodePty.IPty, text: string, cast: ScreenWatch['cast']): Promise<void> {
  for (const ch of text) {
    p.write(ch);
    cast.input(ch, Date.now());
    await sleep(30);
  }
}

/**
 * A unique word of the mock's answers, matched even when a narrow pane wraps it over rows: box sides
 * and a scrollbar's thumb (Cline draws `█` at the right edge) may stand between its pieces.
 */
export function wrapped(word: string): RegExp {
  return new RegExp([...word].map((ch) => ch.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')).join('[\\s│┃█▐▌▄▀]*'));
}

/** Whether the CLI has put its terminal out of canonical mode, so that it reads each key itself. */
export function readsKeys(p: NodePty.IPty): boolean {
  const tty = (p as unknown as { ptsName?: string }).ptsName;
  if (!tty) return true;
  const result = spawnSync('stty', ['-F', tty, '-a'], { encoding: 'utf8' });
  return result.status === 0 && /(^|\s)-icanon\b/.test(result.stdout);
}

export function trimEmpty(lines: string[]): string[] {
  let start = 0;
  while (start < lines.length && !lines[start]!.trim()) start++;
  return lines.slice(start);
}

/** Collapses consecutive identical OSC events (spinner titles repeat many times). */
export function dedupeRuns(lines: string[]): string[] {
  const out: string[] = [];
  let previous = '';
  let repeats = 0;
  for (const line of lines) {
    const body = line.replace(/^- byte \d+: /, '');
    if (body === previous) { repeats++; continue; }
    if (repeats) out.push(`  (repeated ${repeats} more times)`);
    out.push(line);
    previous = body;
    repeats = 0;
  }
  if (repeats) out.push(`  (repeated ${repeats} more times)`);
  return out;
}

