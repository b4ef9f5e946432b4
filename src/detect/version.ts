const DOTTED_NUMERIC = /^\d+(?:\.\d+)*$/;

export function isDottedVersion(value: string): boolean {
  return DOTTED_NUMERIC.test(value);
}

/** Compares dotted numeric versions segment by segment; missing segments count as 0 (1.2 == 1.2.0). */
export function compareVersions(a: string, b: string): number {
  const left = a.split('.').map(Number);
  const right = b.split('.').map(Number);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const diff = (left[i] ?? 0) - (right[i] ?? 0);
    if (diff !== 0) return diff < 0 ? -1 : 1;
  }
  return 0;
}
