/** One word for a POSIX shell, single-quoted (ssh hands the remote command to the login's shell). */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
