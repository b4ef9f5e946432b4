// R5, hostile manifests: catastrophic regexes, a FIFO, a device file (a symlink to /dev/zero), a 10 MB
// file and an id that tries path traversal, in the override folder and in a catalog (a local folder,
// an http index on loopback, and the installed catalog folder itself). During each attempt another
// client keeps calling server.status: every call is answered (its p99 is reported, not asserted), and
// the rules in force keep working: a pane running the fake Claude still goes working and back to idle.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CORRAL_BIN } from '../../harness/daemon.ts';
import { RawClient } from '../../harness/raw-client.ts';
import { useDaemon } from '../helpers/session.ts';
import { fillHostile, HANG_GUARD_MS, manifestToml, mkfifo, TEN_MB } from '../manifest-store/hostile-files.ts';
import { report, summary } from '../../harness/figures.ts';
import { sleep } from '../../harness/wait.ts';

/** A status call not answered within this is counted as unanswered (a generous bound, not a timing goal). */
const STATUS_ANSWER_BOUND_MS = 10_000;
const STATUS_GAP_MS = 20;
/** A reload compiles every manifest; under a loaded machine that can take seconds, never this long. */
const RELOAD_ANSWER_BOUND_MS = 60_000;

/** Patterns a backtracking engine spends exponential time on, against lines of a's ending in `!`. */
const CATASTROPHIC = `line_regex = ['(a+)+$']\n[[rules]]\nid = "r2"\nstate = "blocked"\nregex = ['(a|aa)+$', '(x+x+)+y']`;
const HOSTILE_LINE_SCRIPT = "setInterval(() => console.log('a'.repeat(48) + '!'), 40)";

/** Calls server.status back to back on its own connection until stopped; counts answers and latencies. */
class StatusProbe {
  readonly latencies: number[] = [];
  unanswered = 0;
  #running = true;
  #done: Promise<void>;

  constructor(client: RawClient) {
    this.#done = this.#loop(client);
  }

  async #loop(client: RawClient): Promise<void> {
    let id = 1;
    while (this.#running) {
      const start = performance.now();
      client.request(id++, 'server.status');
      try {
        const reply = await client.next(STATUS_ANSWER_BOUND_MS);
        assert.ok(reply.result, `server.status failed: ${JSON.stringify(reply.error)}`);
        this.latencies.push(performance.now() - start);
      } catch {
        this.unanswered += 1;
        return; // the connection is out of step after a lost reply
      }
      await sleep(STATUS_GAP_MS);
    }
  }

  async stop(): Promise<{ n: number; p99Ms: number; maxMs: number; unanswered: number }> {
    this.#running = false;
    await this.#done;
    const { n, p99Ms, maxMs } = summary(this.latencies);
    return { n, p99Ms, maxMs, unanswered: this.unanswered };
  }
}

function corral(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CORRAL_BIN, ...args], { env: { ...process.env, ...env }, timeout: HANG_GUARD_MS, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const failure = error as (Error & { code?: number; signal?: string }) | null;
      resolve({ code: failure ? (typeof failure.code === 'number' ? failure.code : null) : 0, signal: failure?.signal ?? null, stdout, stderr });
    });
  });
}

describe('R5, hostile manifests', () => {
  const session = useDaemon();
  const { call } = session;
  let probeClient: RawClient;
  let claude: string;
  let overrides: string;
  let installed: string;
  let server: Server;
  let base: string;
  const routes = new Map<string, string>();
  const figures: Record<string, unknown> = {};

  before(async () => {
    probeClient = await RawClient.connect(session.daemon.socket);
    overrides = join(session.daemon.dir, 'config', 'corral', 'agent-detection');
    installed = join(session.daemon.dir, 'data', 'corral', 'agent-detection');
    mkdirSync(overrides, { recursive: true });
    mkdirSync(installed, { recursive: true });
    claude = await session.fakeAgent(300, { name: 'claude' });
    server = createServer((request, response) => {
      const body = routes.get(request.url ?? '');
      response.writeHead(body === undefined ? 404 : 200, { 'content-length': String(Buffer.byteLength(body ?? '')) });
      response.end(body ?? '');
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    probeClient?.close();
    server?.closeAllConnections();
    await new Promise((closed) => server?.close(closed));
    report('R5 hostile manifests, server.status during each attempt', figures);
  });

  /** Runs one attempt under the status probe, then checks the fake Claude still goes working and back to idle. */
  async function attempt(what: string, action: () => Promise<void>): Promise<void> {
    const probe = new StatusProbe(probeClient);
    await sleep(100); // the probe is answering before the attempt starts
    await action();
    await sleep(300); // and keeps answering while the daemon evaluates after it
    const status = await probe.stop();
    figures[what] = status;
    assert.equal(status.unanswered, 0, `${what}: a server.status call went unanswered`);
    assert.ok(status.n > 0, `${what}: no status call completed`);
    await call('pane.send', { target: claude, text: `still detecting after ${what}`, keys: ['Enter'] });
    await session.agentUntil(claude, (info) => info.rawState === 'working', `${what}: the fake Claude detected working`);
    await session.agentUntil(claude, (info) => info.rawState === 'idle' && info.source === 'screen:prompt_box', `${what}: the fake Claude detected idle again`);
  }

  let reloadId = 1_000_000;
  async function reload(): Promise<{ manifests: { id: string; layer: string; version: string }[]; errors: { file: string; code: string }[] }> {
    session.client.request(reloadId++, 'server.reloadManifests');
    const reply = await session.client.next(RELOAD_ANSWER_BOUND_MS);
    assert.ok(reply.result, `server.reloadManifests failed: ${JSON.stringify(reply.error)}`);
    return reply.result;
  }

  const codeFor = (errors: { file: string; code: string }[], name: string) => errors.find((error) => error.file.endsWith(`/${name}`))?.code;

  it('in the override folder: each hostile file is refused or harmless, and status keeps answering', { timeout: 170_000 }, async () => {
    writeFileSync(join(overrides, 'redos.toml'), manifestToml('redos', '1.0.0', CATASTROPHIC));
    const hostilePane = await call('pane.spawn', { command: process.execPath, args: ['-e', HOSTILE_LINE_SCRIPT], cwd: session.daemon.dir, name: 'redos', env: { CORRAL_AGENT: 'redos' } });
    await attempt('override: catastrophic regexes on a screen of a...a!', async () => {
      const result = await reload();
      assert.equal(result.manifests.find((m) => m.id === 'redos')?.layer, 'user');
      await session.agentUntil(hostilePane.id, (info) => info.agent === 'redos', 'the hostile pane identified as redos');
      await session.screenContains(hostilePane.id, `${'a'.repeat(48)}!`);
      await sleep(1000); // a second of screen changes, each evaluated with the catastrophic rules
    });

    const files: [string, string, () => void][] = [
      ['override: a FIFO zz.toml', 'zz.toml', () => mkfifo(join(overrides, 'zz.toml'))],
      ['override: a symlink to /dev/zero', 'zero.toml', () => symlinkSync('/dev/zero', join(overrides, 'zero.toml'))],
      ['override: a 10 MB file', 'big.toml', () => writeFileSync(join(overrides, 'big.toml'), `${manifestToml('big', '1.0.0')}# ${'x'.repeat(TEN_MB)}\n`)],
      ['override: an id with path traversal', 'evil.toml', () => writeFileSync(join(overrides, 'evil.toml'), manifestToml('../../evil', '1.0.0'))],
    ];
    const expected: Record<string, string> = { 'zz.toml': 'manifest_not_regular_file', 'zero.toml': 'manifest_not_regular_file', 'big.toml': 'manifest_limit_exceeded', 'evil.toml': 'manifest_invalid_value' };
    for (const [what, name, create] of files) {
      create();
      await attempt(what, async () => {
        const result = await reload();
        assert.equal(codeFor(result.errors, name), expected[name], `${what}: ${JSON.stringify(result.errors)}`);
        assert.equal(result.manifests.find((m) => m.id === 'claude')?.layer, 'bundled');
      });
      rmSync(join(overrides, name), { recursive: true, force: true });
    }
    rmSync(join(overrides, 'redos.toml'));
    await call('pane.kill', { target: hostilePane.id });
  });

  it('in a catalog: a local folder, an http index and the installed folder, and status keeps answering', { timeout: 170_000 }, async () => {
    const hostilePane = await call('pane.spawn', { command: process.execPath, args: ['-e', HOSTILE_LINE_SCRIPT], cwd: session.daemon.dir, name: 'redos-catalog', env: { CORRAL_AGENT: 'redos' } });
    const env = { XDG_CONFIG_HOME: join(session.daemon.dir, 'config'), XDG_DATA_HOME: join(session.daemon.dir, 'data') };

    await attempt('catalog: an http index with a catastrophic regex, a 10 MB manifest and traversal', async () => {
      routes.set('/catalog/index.json', JSON.stringify({ manifests: ['redos.toml', 'big.toml', '../../evil.toml', 'evil-id.toml'] }));
      routes.set('/catalog/redos.toml', manifestToml('redos', '2.0.0', CATASTROPHIC));
      routes.set('/catalog/big.toml', `${manifestToml('big', '1.0.0')}# ${'x'.repeat(TEN_MB)}\n`);
      routes.set('/evil.toml', manifestToml('evil', '1.0.0')); // `../../evil.toml` reaches only what the server serves, installed as evil.toml in its folder
      routes.set('/catalog/evil-id.toml', manifestToml('../../evil', '1.0.0'));
      const run = await corral(['server', 'update-manifests', '--from', `${base}/catalog/index.json`, '--into', installed, '--json'], env);
      assert.equal(run.signal, null, 'update-manifests finished within the hang guard');
      assert.equal(run.code, 1, run.stderr);
      const result = JSON.parse(run.stdout) as { outcomes: { id: string; decision: string }[]; errors: { file: string; code: string }[] };
      assert.deepEqual(result.outcomes.map((o) => `${o.id} ${o.decision}`).sort(), ['evil installed', 'redos installed']);
      assert.equal(codeFor(result.errors, 'big.toml'), 'catalog_limit_exceeded');
      assert.equal(codeFor(result.errors, 'evil-id.toml'), 'manifest_invalid_value');
      const reloaded = await reload();
      assert.equal(reloaded.manifests.find((m) => m.id === 'redos')?.layer, 'catalog');
      await session.agentUntil(hostilePane.id, (info) => info.agent === 'redos', 'the hostile pane identified as redos');
      await sleep(1000);
    });

    await attempt('catalog: a local folder with a FIFO, /dev/zero, 10 MB and traversal', async () => {
      const folder = join(session.daemon.dir, 'hostile-catalog');
      fillHostile(folder, '3.0.0');
      const run = await corral(['server', 'update-manifests', '--from', folder, '--into', installed, '--json'], env);
      assert.equal(run.signal, null, 'update-manifests finished within the hang guard');
      const result = JSON.parse(run.stdout) as { outcomes: { id: string; decision: string }[]; errors: { file: string; code: string }[] };
      assert.deepEqual(
        Object.fromEntries(result.errors.map((e) => [e.file.replace(/^.*\//, ''), e.code]).sort()),
        { 'big.toml': 'manifest_limit_exceeded', 'dir.toml': 'manifest_not_regular_file', 'evil.toml': 'manifest_invalid_value', 'zero.toml': 'manifest_not_regular_file', 'zz.toml': 'manifest_not_regular_file' },
      );
      assert.deepEqual(result.outcomes.map((o) => `${o.id} ${o.decision}`).sort(), ['good installed', 'redos installed']);
      await reload();
    });

    await attempt('catalog: the installed folder holding a FIFO, /dev/zero and a FIFO sources.json', async () => {
      symlinkSync('/dev/zero', join(installed, 'zero.toml'));
      mkfifo(join(installed, 'zz.toml'));
      rmSync(join(installed, 'sources.json'), { force: true });
      mkfifo(join(installed, 'sources.json'));
      const result = await reload();
      assert.equal(codeFor(result.errors, 'zero.toml'), 'manifest_not_regular_file');
      assert.equal(codeFor(result.errors, 'zz.toml'), 'manifest_not_regular_file');
      assert.equal(result.manifests.find((m) => m.id === 'redos')?.version, '3.0.0');
    });
    await call('pane.kill', { target: hostilePane.id });
  });
});
