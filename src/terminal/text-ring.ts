/**
 * The newest `capacity` lines of plain text, oldest first. Storage grows with use, so a pane that
 * printed little holds little; once full, each new line replaces the oldest.
 */
export class TextRing {
  private lines: string[] = [];
  /** Index in `lines` of the oldest line (non-zero only once full). */
  private start = 0;

  constructor(readonly capacity: number) {}

  get length(): number {
    return this.lines.length;
  }

  push(line: string): void {
    if (this.capacity <= 0) return;
    if (this.lines.length < this.capacity) {
      this.lines.push(line);
      return;
    }
    this.lines[this.start] = line;
    this.start = (this.start + 1) % this.capacity;
  }

  /** The line `index` places after the oldest (0 is the oldest). */
  at(index: number): string {
    return this.lines[(this.start + index) % this.lines.length] ?? '';
  }

  /** Forgets the newest `count` lines. */
  dropNewest(count: number): void {
    const keep = Math.max(0, this.lines.length - count);
    if (keep === this.lines.length) return;
    const kept: string[] = [];
    for (let i = 0; i < keep; i++) kept.push(this.at(i));
    this.lines = kept;
    this.start = 0;
  }

  clear(): void {
    this.lines = [];
    this.start = 0;
  }
}
