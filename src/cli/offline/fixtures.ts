import { join } from 'node:path';
import { readCapture } from './capture.ts';
import { collectCases } from './conformance-run.ts';
import type { FixtureScreen } from './lint-run.ts';
import { replayAtOffsets } from './replay-stream.ts';
import { parseProgress, readScreenLines } from './screen-file.ts';

/** Every labelled screen under DIR/screens and every labelled stream offset under DIR/streams, as detection inputs. */
export async function loadFixtureScreens(dir: string): Promise<FixtureScreen[]> {
  const screens: FixtureScreen[] = collectCases<{ file: string; agent: string; osc_title?: string | null; osc_progress?: string | null }>(join(dir, 'screens')).map((item) => ({
    agent: item.agent,
    name: item.file,
    input: { lines: readScreenLines(item.path), title: item.osc_title ?? null, progress: parseProgress(item.osc_progress) },
  }));
  const streams = collectCases<{ file: string; agent: string; bytes: number; cols: number; rows: number }>(join(dir, 'streams'));
  for (const path of new Set(streams.map((item) => item.path))) {
    const group = streams.filter((item) => item.path === path);
    const first = group[0]!;
    await replayAtOffsets(readCapture(path), group.map((item) => item.bytes), { cols: first.cols, rows: first.rows }, (offset, input) => {
      for (const item of group) if (item.bytes === offset) screens.push({ agent: item.agent, name: `${item.file}@${offset}`, input });
    });
  }
  return screens;
}
