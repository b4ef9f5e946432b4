export const ATTENTION_ORDER = ['blocked', 'done', 'working', 'idle', 'unknown'];

/** "4s", "12m", "3h", "2d": how long an agent has been in its state. */
export function age(since: number, now = Date.now()): string {
  const seconds = Math.max(0, Math.floor((now - since) / 1000));
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86400)}d`;
}

/** Milliseconds until age(since) says something else: its label's own unit, a second up to a day. */
export function ageChangesIn(since: number, now = Date.now()): number {
  const elapsed = Math.max(0, now - since);
  const unit = elapsed < 60_000 ? 1000 : elapsed < 3_600_000 ? 60_000 : elapsed < 86_400_000 ? 3_600_000 : 86_400_000;
  return unit - (elapsed % unit);
}

/** An element with a class, text and children. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className = '', text = '', ...children: (Node | null)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  for (const child of children) if (child) node.append(child);
  return node;
}

/** What the display metadata says, as short labels: its title, state label and tokens. */
export function metadataLabels(metadata: Record<string, unknown> | null): string[] {
  if (metadata === null) return [];
  const labels: string[] = [];
  for (const key of ['title', 'displayAgent', 'stateLabel', 'tokens']) {
    const value = metadata[key];
    if (typeof value === 'string' || typeof value === 'number') labels.push(key === 'tokens' ? `${value} tokens` : String(value));
  }
  return labels;
}
