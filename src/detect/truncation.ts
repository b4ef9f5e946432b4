const ELLIPSIS = '…';

/**
 * Whether some line ends with a cut form of `needle`: at least `minPrefix` of its first characters
 * (fewer than all of them), then `…`. Both sides are lower-case. Footers cut short in a narrow pane
 * read `/ comm…` where a wide one reads `/ commands · ? help`. Returns the line's index, or -1.
 */
export function findTruncated(lowerLines: readonly string[], needle: string, minPrefix: number): number {
  if (needle.length <= minPrefix) return -1;
  for (let i = 0; i < lowerLines.length; i++) {
    const line = lowerLines[i]!.trimEnd();
    if (!line.endsWith(ELLIPSIS)) continue;
    const body = line.slice(0, -ELLIPSIS.length);
    for (let k = Math.min(needle.length - 1, body.length); k >= minPrefix; k--) {
      if (body.endsWith(needle.slice(0, k))) return i;
    }
  }
  return -1;
}
