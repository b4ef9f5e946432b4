import type { BoardCard } from '../wire.ts';

/** The rollup pill a card counts in: its workspace, and with --fleet its host (`api@build`). */
export function workspaceKey({ info, host }: BoardCard): string {
  return host !== undefined ? `${info.workspace}@${host}` : info.workspace;
}

/**
 * Which cards the board shows: those whose name, id, agent, workspace, host and state hold every word
 * typed in the filter box (any case), and, when a workspace pill is pressed, only that workspace's.
 * `version` moves on with each change, so the board knows to draw again.
 */
export class BoardFilter {
  private words: string[] = [];
  private typed = '';
  private pill: string | null = null;
  version = 0;

  get text(): string {
    return this.typed;
  }

  set text(value: string) {
    if (value === this.typed) return;
    this.typed = value;
    this.words = value.toLowerCase().split(/\s+/).filter(Boolean);
    this.version++;
  }

  /** The pressed workspace pill's key (workspaceKey), or null: every workspace. */
  get workspace(): string | null {
    return this.pill;
  }

  set workspace(key: string | null) {
    if (key === this.pill) return;
    this.pill = key;
    this.version++;
  }

  /** Presses a pill, or releases it if it was the one pressed. */
  toggleWorkspace(key: string): void {
    this.workspace = this.pill === key ? null : key;
  }

  get empty(): boolean {
    return this.words.length === 0 && this.pill === null;
  }

  clear(): void {
    this.text = '';
    this.workspace = null;
  }

  matches(card: BoardCard): boolean {
    if (this.pill !== null && workspaceKey(card) !== this.pill) return false;
    if (this.words.length === 0) return true;
    const { info, host } = card;
    const haystack = [info.name ?? '', info.id, info.agent ?? '', info.workspace, host ?? '', info.state].join('\n').toLowerCase();
    return this.words.every((word) => haystack.includes(word));
  }
}
