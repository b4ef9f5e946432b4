import type { NOTIFY_PLACEHOLDERS } from '../config/config-schema.ts';

type NotifyValues = Record<(typeof NOTIFY_PLACEHOLDERS)[number], string>;

/** A value longer than this is cut: a title or message is a line, never a payload. */
const MAX_VALUE_CHARS = 512;

/**
 * Fills `{placeholder}`s in each argument. Values land inside one argv element each, so nothing a
 * program puts in its title can become another argument or a shell word.
 */
export function fillArgv(template: readonly string[], values: NotifyValues): string[] {
  return template.map((arg) =>
    arg.replace(/\{([a-z]+)\}/g, (whole, name: string) =>
      Object.hasOwn(values, name) ? clean(values[name as keyof NotifyValues]) : whole,
    ),
  );
}

function clean(value: string): string {
  // Control characters (escape sequences from a title) have no place in a desktop notification.
  // eslint-disable-next-line no-control-regex
  const plain = value.replace(/[\x00-\x1f\x7f]/g, ' ');
  return plain.length > MAX_VALUE_CHARS ? `${plain.slice(0, MAX_VALUE_CHARS - 1)}…` : plain;
}
