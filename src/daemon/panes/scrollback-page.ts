/** A page of scrollback as JSON takes at most this many bytes, so that its reply stays inside the 1 MiB frame (docs/protocol.md). */
export const MAX_PAGE_TEXT_BYTES = 768 << 10;

/**
 * The newest `lines` lines `read` gives, halved until they fit MAX_PAGE_TEXT_BYTES as JSON (one line
 * at least, which a terminal's width keeps small): wide, coloured lines come in shorter pages.
 */
export function fittedPage(read: (lines: number) => string, lines: number): { text: string; lines: number } {
  for (let n = lines; ; n = Math.ceil(n / 2)) {
    const text = read(n);
    if (n <= 1 || Buffer.byteLength(JSON.stringify(text)) <= MAX_PAGE_TEXT_BYTES) return { text, lines: n };
  }
}
