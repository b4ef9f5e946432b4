/** A span of the day in local time, minutes from midnight; `end` before `start` runs past midnight. */
interface Span {
  start: number;
  end: number;
}

const DAY_MINUTES = 24 * 60;

function parse(spec: string): Span | null {
  const match = /^(\d\d):(\d\d)-(\d\d):(\d\d)$/.exec(spec);
  if (!match) return null;
  const [, h1, m1, h2, m2] = match.map(Number) as [number, number, number, number, number];
  return { start: h1 * 60 + m1, end: h2 * 60 + m2 };
}

/** The quiet hours that hold for a receiver: its own (`off` for none), else the daemon's `[notify] quiet_hours`. */
export function effectiveQuietHours(own: string | null | undefined, daemon: string | null): string | null {
  const spec = own ?? daemon;
  return spec === 'off' ? null : spec;
}

/**
 * Milliseconds until the quiet hours `spec` end, when `now` is inside them (local time, to the
 * minute: 22:00-07:00 holds from 22:00:00 to 06:59:59); null when `now` is outside, or for none.
 * A span whose start equals its end is empty.
 */
export function quietFor(spec: string | null, now: Date): number | null {
  const span = spec === null ? null : parse(spec);
  if (span === null || span.start === span.end) return null;
  const minute = now.getHours() * 60 + now.getMinutes();
  const inside = span.start < span.end ? minute >= span.start && minute < span.end : minute >= span.start || minute < span.end;
  if (!inside) return null;
  const untilEnd = (span.end - minute + DAY_MINUTES) % DAY_MINUTES || DAY_MINUTES;
  const sinceMinute = now.getSeconds() * 1000 + now.getMilliseconds();
  return untilEnd * 60_000 - sinceMinute;
}
