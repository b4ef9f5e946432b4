// Prints the emulated screen of a capture (raw or .cast) at a byte offset, for reading recordings.
// Usage: node --import tsx agent-clis/show-screen.ts FILE COLSxROWS [BYTES]
import { readCapture } from '../src/cli/offline/capture.ts';
import { replayAtOffsets } from '../src/cli/offline/replay-stream.ts';

const [file, size, bytes] = process.argv.slice(2);
const [cols, rows] = (size ?? '120x32').split('x').map(Number);
const data = readCapture(file!);
await replayAtOffsets(data, [bytes ? Number(bytes) : data.length], { cols: cols!, rows: rows! }, (_offset, input) => {
  process.stdout.write(`title: ${JSON.stringify(input.title)} progress: ${JSON.stringify(input.progress)}\n`);
  for (const line of input.lines) process.stdout.write(`|${line}\n`);
});
