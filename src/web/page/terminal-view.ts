import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import type { PageRpc } from './rpc.ts';

/** The smallest font the terminal is drawn with; a pane wider than the screen then scrolls sideways. */
const MIN_FONT_PX = 10;
const MAX_FONT_PX = 15;
/** A monospace cell's width as a share of its font size. */
const CELL_WIDTH = 0.6;

/**
 * A pane's live terminal in the page: xterm.js at the pane's own size (viewing never resizes it), its
 * font fitted to the screen's width where it can be, and the pane's output written in stream order.
 * Keys reach the pane only while this page holds the pane's control lease.
 */
export class TerminalView {
  readonly term: Terminal;
  private readonly fit = new FitAddon();
  private writes: Promise<void> = Promise.resolve();
  leaseMine = false;
  onRefused: (why: string) => void = () => {};

  constructor(
    private readonly container: HTMLElement,
    private readonly rpc: PageRpc,
    readonly id: string,
    cols: number,
    rows: number,
  ) {
    this.term = new Terminal({ cols, rows, fontSize: this.fontFor(cols), scrollback: 2000, cursorBlink: false, allowProposedApi: false, theme: { background: '#0d0f12' } });
    this.term.loadAddon(this.fit);
    this.term.open(container);
    this.term.onData((data) => this.type(data));
  }

  private fontFor(cols: number): number {
    const width = this.container.clientWidth || window.innerWidth;
    return Math.max(MIN_FONT_PX, Math.min(MAX_FONT_PX, Math.floor(width / (cols * CELL_WIDTH))));
  }

  /** Output in order; a redraw first takes the pane's current size, then paints the whole screen. */
  output(data: string, redraw: boolean): void {
    this.writes = this.writes.then(async () => {
      if (redraw) {
        const screen = await this.rpc.call('agent.read', { target: this.id, source: 'screen', lines: 1 }).catch(() => null);
        if (screen && (screen.cols !== this.term.cols || screen.rows !== this.term.rows)) {
          this.term.options.fontSize = this.fontFor(screen.cols);
          this.term.resize(screen.cols, screen.rows);
        }
        this.term.reset();
      }
      await new Promise<void>((resolve) => this.term.write(data, resolve));
    });
  }

  private type(data: string): void {
    if (!this.leaseMine) return this.onRefused('Take control to type into this terminal.');
    if (!this.rpc.open) return this.onRefused('Not connected: what you typed was dropped.');
    this.rpc.call('terminal.input', { target: this.id, data }).catch((error: { message: string }) => this.onRefused(error.message));
  }

  /** The pane size that would fill this terminal's box: resizing the pane to it is a deliberate act. */
  proposed(): { cols: number; rows: number } | null {
    this.term.options.fontSize = MAX_FONT_PX - 2;
    const size = this.fit.proposeDimensions();
    return size && Number.isFinite(size.cols) ? { cols: Math.max(20, size.cols), rows: Math.max(5, size.rows) } : null;
  }

  /** The terminal's text as a person reads it, row by row (what tests compare with `corral pane read`). */
  text(): string {
    const buffer = this.term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < this.term.rows; y++) lines.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '');
    return lines.join('\n');
  }

  dispose(): void {
    this.term.dispose();
  }
}
