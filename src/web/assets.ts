import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';

/** The checkout (or package) root: this file sits two folders deep, in src/web/ or bundled in dist/cli/. */
const ROOT = new URL('../../', import.meta.url);
const STATIC = new URL('src/web/static/', ROOT);
const BUNDLE = new URL('dist/web/', ROOT);

export interface Asset {
  type: string;
  body: Buffer;
  /** The body gzipped once at start, for browsers that accept it (a phone downloads a quarter). */
  gzipped: Buffer;
}

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  webmanifest: 'application/manifest+json',
};

/** Path served -> the file behind it: the page's static files and its bundle (bin/build.mjs). */
const FILES: Record<string, URL> = {
  '/': new URL('index.html', STATIC),
  '/manifest.webmanifest': new URL('manifest.webmanifest', STATIC),
  '/sw.js': new URL('sw.js', STATIC),
  '/icon.svg': new URL('icon.svg', STATIC),
  '/app.js': new URL('app.js', BUNDLE),
  '/app.css': new URL('app.css', BUNDLE),
};

/** The page's files, read once at start: the server never touches the disk for a request. */
export class Assets {
  private readonly files = new Map<string, Asset>();

  private constructor() {
    for (const [path, url] of Object.entries(FILES)) {
      const body = readFileSync(url);
      this.files.set(path, { type: TYPES[url.pathname.split('.').pop()!] ?? 'application/octet-stream', body, gzipped: gzipSync(body, { level: 9 }) });
    }
  }

  /** Builds the browser bundle when a page source is newer than it, then reads every file. */
  static async load(): Promise<Assets> {
    const build = (await import(pathToFileURL(new URL('bin/build.mjs', ROOT).pathname).href)) as { webIsFresh(): boolean; buildWeb(): Promise<void> };
    if (!build.webIsFresh()) await build.buildWeb();
    return new Assets();
  }

  get(path: string): Asset | undefined {
    return this.files.get(path);
  }

  /** Bytes of the page's code and styles, as built and as a browser downloads them (gzipped). */
  get bundleBytes(): { raw: number; gzipped: number } {
    const files = ['/app.js', '/app.css'].map((path) => this.files.get(path)!);
    return { raw: files.reduce((sum, file) => sum + file.body.length, 0), gzipped: files.reduce((sum, file) => sum + file.gzipped.length, 0) };
  }
}

