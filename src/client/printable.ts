/** C0 and C1 controls and DEL: what would reach a terminal as an escape, a bell or a cursor move. */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * Text another machine sent (ssh's stderr, a host's status), made safe to show: controls as `?`,
 * and cut to `max` characters with an ellipsis, so a host can neither steer a terminal nor fill it.
 */
export function printable(text: string, max: number): string {
  const flat = text.replace(CONTROLS, '?');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
