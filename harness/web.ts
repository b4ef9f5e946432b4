import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import type { Browser } from 'playwright-core';
import WebSocket from 'ws';
import { CORRAL_BIN, testEnv, type DaemonProcess } from './daemon.ts';
import { descendantsOf } from './proc.ts';

/** Debian's chromium, which the browser tests drive (.ci/run installs it when missing). */
export const CHROMIUM = process.env.CORRAL_TEST_CHROMIUM ?? '/usr/bin/chromium';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);

/** That chromium, headless and without a GPU, as the tests and benches run it; `args` adds flags. */
export async function launchChromium(args: readonly string[] = []): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', ...args] });
}

/** The chromium processes this process started, each with its kind (`renderer`, `gpu-process`, ...; `browser` for the main one). */
export function chromiumProcesses(): { pid: number; type: string }[] {
  return descendantsOf(process.pid)
    .filter((proc) => proc.comm.startsWith('chrom'))
    .map(({ pid }) => {
      let cmdline = '';
      try {
        cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      } catch {
        // gone meanwhile
      }
      return { pid, type: /--type=([\w-]+)/.exec(cmdline.replaceAll('\0', ' '))?.[1] ?? 'browser' };
    });
}

export interface WebProcess {
  /** The URL `corral web` printed, with its token. */
  readonly url: string;
  readonly origin: string;
  readonly token: string;
  readonly child: ChildProcess;
  stderr(): string;
  stdout(): string;
  dispose(): Promise<void>;
}

/**
 * Runs the real `corral web --port 0` against a test daemon and resolves once it printed its URL;
 * `env` adds to its environment (heapSnapshotOptions, to read its live heap).
 */
export async function startWeb(daemon: DaemonProcess, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<WebProcess> {
  const child = spawn(process.execPath, [CORRAL_BIN, 'web', '--socket', daemon.socket, '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...testEnv(daemon.dir), ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`corral web printed no URL in time:\n${stderr}`));
    }, 60_000);
    child.stdout!.on('data', () => {
      const match = /open (\S+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`corral web exited with ${code}:\n${stderr}`));
    });
  });
  const parsed = new URL(url);
  return {
    url,
    origin: parsed.origin,
    token: new URLSearchParams(parsed.hash.slice(1)).get('token')!,
    child,
    stderr: () => stderr,
    stdout: () => stdout,
    dispose: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface HttpReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One raw HTTP request with exactly the headers given (fetch would set Host and Origin itself). */
export function httpRequest(origin: string, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<HttpReply> {
  const url = new URL(path, origin);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: options.method ?? 'GET', headers: { host: url.host, ...options.headers }, setHost: false }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (text: string) => (body += text));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The key each session cookie sessionCookieOf traded came with (src/web/sessions.ts), which pageSocket presents. */
const keysOfCookies = new Map<string, string>();

/** A session's cookie and key for the web server's token, traded as the page trades them. */
export async function signIn(web: WebProcess, userAgent?: string): Promise<{ cookie: string; key: string; label: string }> {
  const reply = await httpRequest(web.origin, '/session', { method: 'POST', headers: { origin: web.origin, ...(userAgent !== undefined ? { 'user-agent': userAgent } : {}) }, body: web.token });
  if (reply.status !== 200) throw new Error(`the token exchange answered ${reply.status}: ${reply.body}`);
  const { key, session } = JSON.parse(reply.body) as { key: string; session: string };
  const cookie = String(reply.headers['set-cookie']).split(';')[0]!;
  keysOfCookies.set(cookie, key);
  return { cookie, key, label: session };
}

/** The session cookie for the web server's token; pageSocket presents its key with it. */
export async function sessionCookieOf(web: WebProcess): Promise<string> {
  return (await signIn(web)).cookie;
}

/**
 * A page socket as a browser would open it; resolves once open, or rejects with the refusal's status.
 * It offers the key that came with `headers.cookie` as the page does (subprotocol `corral.key.KEY`),
 * or `key` when given (null: none, as a server that captured only the cookie would).
 */
export function pageSocket(web: WebProcess, headers: Record<string, string>, key?: string | null): Promise<PageClient> {
  const offered = key === undefined ? (headers.cookie !== undefined ? keysOfCookies.get(headers.cookie) : undefined) : key;
  const protocols = offered === undefined || offered === null ? [] : ['corral', `corral.key.${offered}`];
  const ws = new WebSocket(`${web.origin.replace('http', 'ws')}/socket`, protocols, { headers });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(new PageClient(ws)));
    ws.once('unexpected-response', (_req, res) => reject(Object.assign(new Error(`upgrade refused: ${res.statusCode}`), { status: res.statusCode })));
    ws.once('error', reject);
  });
}

/** The page's side of the socket, for tests: calls, and every notification kept in order. */
export class PageClient {
  private nextId = 1;
  private readonly pending = new Map<number, (reply: { result?: any; error?: any }) => void>();
  readonly notifications: { method: string; params: any }[] = [];

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const message = JSON.parse(String(data));
      if (message.method) this.notifications.push(message);
      else this.pending.get(message.id)?.(message);
    });
  }

  /** The reply: `{result}` or `{error}`. */
  call(method: string, params: object = {}): Promise<{ result?: any; error?: any }> {
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    return new Promise((resolve) => this.pending.set(id, resolve));
  }

  close(): void {
    this.ws.close();
  }
}
