import { randomBytes } from 'node:crypto';

/** Tokens kept at most; the oldest are forgotten first (a forgotten token answers `expired`). */
const MAX_TOKENS = 4096;

/** Why a token types nothing (PUSH_ANSWER_REFUSALS in src/protocol/methods/push.ts). */
export type TokenRefusal = 'prompt_changed' | 'expired' | 'used' | 'invalid';

/** What one token answers: one prompt of one pane, with one of the choices it offered. */
export interface TokenGrant {
  pane: string;
  promptId: string;
  choice: string;
}

/** What a confirmation page shows of a token before it is spent (the prompt as it was when the token was minted). */
export interface TokenAbout {
  label: string;
  agent: string | null;
  paneName: string | null;
  question: string;
}

interface Entry extends TokenGrant {
  about: TokenAbout | null;
  expiresAt: number;
  /** Set once: the token was spent, or its prompt went. */
  closed: 'used' | 'prompt_changed' | null;
}

/**
 * The answer tokens of notification buttons: 32 random bytes each, minted by the daemon for one pane's
 * prompt and one of its safe choices, spent once, closed when that prompt leaves the pane, and dead after
 * their TTL. Kept in memory only: a daemon restart voids the buttons of earlier pushes (they answer `expired`).
 */
export class AnswerTokens {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => number = Date.now) {}

  mint(grant: TokenGrant, ttlMs: number, about: TokenAbout | null = null): string {
    const token = randomBytes(32).toString('base64url');
    this.entries.set(token, { ...grant, about, expiresAt: this.now() + ttlMs, closed: null });
    while (this.entries.size > MAX_TOKENS) this.entries.delete(this.entries.keys().next().value!);
    return token;
  }

  /**
   * Checks a token for this choice (and pane, when the caller names one) and spends it: the grant, or
   * why not. Spent before anything is typed, so that two taps of one button type once.
   */
  spend(token: string, choice: string, pane: string | undefined): TokenGrant | { refused: TokenRefusal } {
    const entry = this.open(token, choice, pane);
    if ('refused' in entry) return entry;
    entry.closed = 'used';
    return { pane: entry.pane, promptId: entry.promptId, choice: entry.choice };
  }

  /** What a token would answer, as `spend` checks it, without spending it. */
  peek(token: string, choice: string, pane: string | undefined): (TokenGrant & { about: TokenAbout | null }) | { refused: TokenRefusal } {
    const entry = this.open(token, choice, pane);
    if ('refused' in entry) return entry;
    return { pane: entry.pane, promptId: entry.promptId, choice: entry.choice, about: entry.about };
  }

  private open(token: string, choice: string, pane: string | undefined): Entry | { refused: TokenRefusal } {
    // 256 random bits: a guess is hopeless, so a plain lookup serves.
    const entry = this.entries.get(token);
    if (entry === undefined || entry.expiresAt <= this.now()) return { refused: 'expired' };
    if (entry.closed !== null) return { refused: entry.closed };
    if (entry.choice !== choice || (pane !== undefined && pane !== entry.pane)) return { refused: 'invalid' };
    return entry;
  }

  /** The pane shows another prompt (or none): its tokens for any other prompt are closed. */
  promptLeft(pane: string, current: string | null): void {
    for (const entry of this.entries.values()) if (entry.pane === pane && entry.promptId !== current && entry.closed === null) entry.closed = 'prompt_changed';
  }

  /** The pane is gone: its tokens with it. */
  forgetPane(pane: string): void {
    for (const [token, entry] of this.entries) if (entry.pane === pane) this.entries.delete(token);
  }
}
