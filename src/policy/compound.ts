/**
 * Whether a shell command does more than one thing, or more than run: a sequence, a conjunction, a
 * pipe, a substitution, a redirection, a background job or a second line. Quotes are not read: a
 * separator inside quotes counts too, so a quoted `;` makes a command compound, never a plain one.
 */
const COMPOUND = /[;&|<>`\n\r]|\$\(/;

export function isCompound(command: string): boolean {
  return COMPOUND.test(command);
}
