import { readFileSync } from 'node:fs';
import type { ProgressReport } from '../../terminal/snapshot.ts';
import { UsageError } from '../print-error.ts';

/** A saved screen (`agent read --source detection` or a corpus `.screen.txt`) as detection lines. */
export function readScreenLines(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read screen file ${file}: ${(error as Error).message}`);
  }
  return text.replace(/\r\n/g, '\n').split('\n').map((line) => line.trimEnd());
}

/** `3` or `1;40` (the OSC 9;4 state and percent) to a progress report; null for empty. */
export function parseProgress(text: string | null | undefined): ProgressReport | null {
  if (text === null || text === undefined || text.trim() === '') return null;
  const match = /^([0-4])(?:;(\d{1,3}))?$/.exec(text.trim());
  if (!match) throw new UsageError(`progress "${text}" is not <state> or <state>;<percent> with state 0..4`);
  return { state: Number(match[1]) as ProgressReport['state'], percent: match[2] === undefined ? null : Number(match[2]) };
}
