const ESC = '\x1b';

/** Gives the user's terminal back as it was: modes a mirrored program may have set, then the main screen. */
const RESTORE =
  `${ESC}[?2026l${ESC}[0m${ESC}[r${ESC}[?1l${ESC}>${ESC}[?2004l${ESC}[?1000l${ESC}[?1002l${ESC}[?1003l` +
  `${ESC}[?1006l${ESC}[?1004l${ESC}[?25h${ESC}[?1049l`;

/** Signals after which a full-screen command leaves the terminal usable, with the shell's exit status. */
const SIGNAL_EXIT = { SIGTERM: 143, SIGHUP: 129, SIGINT: 130 } as const;

/**
 * The user's terminal while a full-screen command runs: raw mode and the alternate screen, restored
 * on leave(), on process exit and on SIGTERM, SIGHUP and SIGINT. Safe to enter and leave repeatedly.
 */
export class TerminalGuard {
  private entered = false;
  private readonly onExit = () => this.leave();
  private readonly onSignal = (signal: keyof typeof SIGNAL_EXIT) => {
    this.leave();
    process.exit(SIGNAL_EXIT[signal]);
  };

  constructor(
    private readonly stdin: NodeJS.ReadStream,
    private readonly stdout: NodeJS.WriteStream,
    private readonly options: { hideCursor: boolean },
  ) {}

  get active(): boolean {
    return this.entered;
  }

  enter(): void {
    if (this.entered) return;
    this.entered = true;
    if (this.stdin.isTTY) this.stdin.setRawMode(true);
    this.stdout.write(`${ESC}[?1049h${ESC}[H${ESC}[2J${this.options.hideCursor ? `${ESC}[?25l` : ''}`);
    process.on('exit', this.onExit);
    for (const signal of Object.keys(SIGNAL_EXIT) as (keyof typeof SIGNAL_EXIT)[]) process.on(signal, this.onSignal);
  }

  leave(): void {
    if (!this.entered) return;
    this.entered = false;
    process.off('exit', this.onExit);
    for (const signal of Object.keys(SIGNAL_EXIT) as (keyof typeof SIGNAL_EXIT)[]) process.off(signal, this.onSignal);
    this.stdout.write(RESTORE);
    if (this.stdin.isTTY) this.stdin.setRawMode(false);
  }
}
