// Counts the terminal queries and modes a raw capture uses, so notes can say what a CLI expects
// of the terminal (queries the emulator must answer, alternate screen, synchronized output).
const PATTERNS: [string, RegExp][] = [
  ['DA1 query (CSI c)', /\x1b\[0?c/g],
  ['XTVERSION query (CSI > q)', /\x1b\[>0?q/g],
  ['kitty keyboard query (CSI ? u)', /\x1b\[\?u/g],
  ['OSC 10/11 colour query', /\x1b\]1[01];\?/g],
  ['alternate screen (?1049)', /\x1b\[\?1049[hl]/g],
  ['synchronized output (?2026)', /\x1b\[\?2026[hl]/g],
  ['bracketed paste (?2004)', /\x1b\[\?2004[hl]/g],
  ['focus reporting (?1004)', /\x1b\[\?1004[hl]/g],
  ['mouse modes (?1000/1002/1003/1006)', /\x1b\[\?100[0236][hl]/g],
  ['kitty keyboard push (CSI > n u)', /\x1b\[>\d+u/g],
  ['modifyOtherKeys (CSI > 4 ; n m)', /\x1b\[>4;?\d*m/g],
  ['OSC 133 shell marks', /\x1b\]133;/g],
  ['OSC 9 (progress or notification)', /\x1b\]9;/g],
  ['OSC 777 notification', /\x1b\]777;/g],
  ['OSC 7501 status', /\x1b\]7501;/g],
  ['erase display (CSI 2 J)', /\x1b\[2J/g],
  ['erase scrollback (CSI 3 J)', /\x1b\[3J/g],
];

/** One line per feature seen: name, count and the first offsets. */
export function rawFacts(raw: Buffer): string[] {
  const text = raw.toString('latin1');
  const out: string[] = [];
  for (const [name, pattern] of PATTERNS) {
    const offsets = [...text.matchAll(pattern)].map((m) => m.index ?? 0);
    if (offsets.length) out.push(`- ${name}: ${offsets.length} (first at bytes ${offsets.slice(0, 4).join(', ')})`);
  }
  return out.length ? out : ['- none of the tracked queries or modes'];
}
