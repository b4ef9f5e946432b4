/** The most characters of a User-Agent header a session keeps. */
export const MAX_USER_AGENT_CHARS = 200;

/**
 * A User-Agent header as a session keeps it: printable ASCII only (anything else becomes `?`), at most
 * MAX_USER_AGENT_CHARS. Whoever signs in chooses it, so it is shown as text and never trusted.
 */
export function cleanUserAgent(header: string | undefined): string {
  const printable = (header ?? '').replace(/[^\x20-\x7e]/g, '?').trim();
  if (printable === '') return 'no user agent';
  return printable.length > MAX_USER_AGENT_CHARS ? `${printable.slice(0, MAX_USER_AGENT_CHARS - 3)}...` : printable;
}

const BROWSERS: [RegExp, string][] = [
  [/Edg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/OPR\/(\d+)/, 'Opera'],
  [/Firefox\/(\d+)/, 'Firefox'],
  [/HeadlessChrome\/(\d+)/, 'Headless Chrome'],
  [/CriOS\/(\d+)/, 'Chrome'],
  [/Chrome\/(\d+)/, 'Chrome'],
  [/Version\/(\d+)[\d.]*(?: Mobile\/\S+)? Safari\//, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/Android/, 'Android'],
  [/iPhone/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/CrOS/, 'ChromeOS'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Windows/, 'Windows'],
  [/Linux/, 'Linux'],
];

/** A short name for a cleaned User-Agent (`Chrome 131 on Android`), else its first 40 characters. */
export function browserName(userAgent: string): string {
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  for (const [pattern, name] of BROWSERS) {
    const match = pattern.exec(userAgent);
    if (match) return `${name} ${match[1]}${system ? ` on ${system}` : ''}`;
  }
  return userAgent.length > 40 ? `${userAgent.slice(0, 37)}...` : userAgent;
}
