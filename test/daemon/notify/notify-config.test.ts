import assert from 'node:assert/strict';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseConfig, DEFAULT_CONFIG } from '../../../src/daemon/config/index.ts';
import { fillArgv } from '../../../src/daemon/notify/argv-template.ts';
import { runCli } from '../../helpers/cli.ts';
import { makeTempDir, startDaemon } from '../../../harness/daemon.ts';
import { mkfifo } from '../../manifest-store/hostile-files.ts';

const FILE = '/home/u/.config/corral/config.toml';

describe('config.toml', () => {
  it('reads every documented key over the defaults', () => {
    const config = parseConfig(
      [
        '[notify]',
        'command = ["notify-send", "{agent} in {name}", "{state}: {message}"]',
        'cooldown_ms = 5000',
        'timeout_ms = 2000',
        'quiet_hours = "22:00-07:00"',
        '[notify.push]',
        'contact = "mailto:me@example.org"',
        'ttl_s = 900',
        '[notify.webhook]',
        'url = "https://hooks.example.org/corral/"',
        'secret = "0123456789abcdef"',
        'events = ["blocked", "budget"]',
        'workspaces = ["api"]',
        'quiet_hours = "off"',
        'public_url = "https://box.example.org:7380"',
        '[events]',
        'retain = 20000',
        'retain_bytes = 2097152',
        'subscriber_buffer_bytes = 65536',
        '[arbiter]',
        'debounce_ms = 300',
        '[reports]',
        'inband = "foreground"',
        '[panes]',
        'respawn = "auto"',
        '[integration]',
        'enabled = false',
        '[policy]',
        'files = ["team.toml"]',
      ].join('\n'),
      FILE,
    );
    assert.deepEqual(config, {
      notify: {
        command: ['notify-send', '{agent} in {name}', '{state}: {message}'],
        cooldownMs: 5000,
        timeoutMs: 2000,
        quietHours: '22:00-07:00',
        push: { contact: 'mailto:me@example.org', ttlSeconds: 900 },
        webhook: { url: 'https://hooks.example.org/corral', secret: '0123456789abcdef', events: ['blocked', 'budget'], workspaces: ['api'], quietHours: 'off', publicUrl: 'https://box.example.org:7380' },
      },
      events: { retain: 20000, retainBytes: 2097152, subscriberBufferBytes: 65536 },
      arbiter: { debounceMs: 300 },
      reports: { inband: 'foreground' },
      panes: { respawn: 'auto', keepExited: 100, useCaller: true, passEnv: [] },
      integration: { enabled: false },
      policy: { files: ['team.toml'] },
      budgets: [],
    });
    assert.deepEqual(parseConfig('', FILE), DEFAULT_CONFIG);
  });

  it('binds in-band reports to the foreground group by default, and keeps "any" as an opt-in', () => {
    assert.equal(DEFAULT_CONFIG.reports.inband, 'group');
    assert.equal(parseConfig('[reports]\ninband = "any"\n', FILE).reports.inband, 'any');
    assert.throws(() => parseConfig('[reports]\ninband = "all"\n', FILE), { message: /reports.inband/ });
  });

  it('names the key, the file and the line of an unknown key', () => {
    assert.throws(() => parseConfig('[notify]\ncooldown_ms = 1\ncomand = ["x"]\n', FILE), {
      code: 'config_invalid',
      message: new RegExp(`^${FILE}:3: unknown key "notify.comand"`),
    });
    assert.throws(() => parseConfig('\n[notfy]\n', FILE), { message: /:2: unknown key "notfy"/ });
    assert.throws(() => parseConfig('[notify.push]\ncontakt = "mailto:a@b"\n', FILE), { message: /unknown key "notify.push.contakt"/ });
    assert.throws(() => parseConfig('[notify.push]\ncontact = "http://example.org"\n', FILE), { message: /"notify.push.contact" must be a mailto: address or an https: URL/ });
  });

  it('checks [notify.webhook] strictly: https (http on loopback), a real secret, known events, quiet hours', () => {
    const webhook = (lines: string) => parseConfig(`[notify.webhook]\n${lines}\n`, FILE).notify.webhook;
    assert.equal(webhook('url = "http://127.0.0.1:9/hook"').url, 'http://127.0.0.1:9/hook');
    assert.throws(() => webhook('url = "http://hooks.example.org/"'), { message: /"notify.webhook.url" must be an https URL \(http only on a loopback address\)/ });
    assert.throws(() => webhook('url = "https://me:pw@hooks.example.org/"'), { message: /no user or password/ });
    assert.throws(() => webhook('url = "https://h.example.org"\nsecret = "short"'), { message: /"notify.webhook.secret" must be a string of 16 to 256/ });
    assert.deepEqual(webhook('url = "https://h.example.org"').events, ['blocked', 'done', 'failed']);
    assert.deepEqual(webhook('url = "https://h.example.org"\nevents = ["failed"]').events, ['failed']);
    assert.throws(() => webhook('url = "https://h.example.org"\nevents = ["crashed"]'), { message: /"notify.webhook.events" must be an array of some of "blocked", "done", "budget", "failed"/ });
    assert.throws(() => webhook('url = "https://h.example.org"\nquiet_hours = "22-7"'), { message: /"notify.webhook.quiet_hours" must be "HH:MM-HH:MM"/ });
    assert.throws(() => webhook('url = "https://h.example.org"\nurl_typo = 1'), { message: /unknown key "notify.webhook.url_typo"/ });
    assert.throws(() => webhook('secret = "0123456789abcdef"'), { message: /:1: "notify.webhook" needs a "url"/ });
    assert.throws(() => parseConfig('[notify]\nquiet_hours = "off"\n', FILE), { message: /"notify.quiet_hours" must be "HH:MM-HH:MM" in local time \(as "22:00-07:00"\);/ });
  });

  it('refuses wrong types, out-of-range values, bad TOML and unknown placeholders', () => {
    assert.throws(() => parseConfig('[notify]\ncooldown_ms = "30s"\n', FILE), { message: /:2: "notify.cooldown_ms" must be an integer/ });
    assert.throws(() => parseConfig('[events]\nretain = 5\n', FILE), { message: /"events.retain" must be an integer from 100/ });
    assert.throws(() => parseConfig('[notify]\ncommand = "notify-send hi"\n', FILE), { message: /array of 1 to 64 strings/ });
    assert.throws(() => parseConfig('[notify]\ncommand = ["x", "{nmae}"]\n', FILE), { message: /unknown placeholder \{nmae\}/ });
    assert.throws(() => parseConfig('[notify\n', FILE), { message: /:1: not valid TOML/ });
  });

  it('fills placeholders inside single arguments, without control characters', () => {
    const argv = fillArgv(['notify-send', '{agent} in {name}', '{state}: {message} {title}'], {
      agent: 'claude',
      name: 'api; rm -rf ~',
      id: 'w1:p1',
      state: 'blocked',
      message: 'waits for a decision',
      title: 'evil\x1b]0;x\x07',
    });
    assert.deepEqual(argv, ['notify-send', 'claude in api; rm -rf ~', 'blocked: waits for a decision evil ]0;x ']);
  });
});

describe('the daemon and its config file', () => {
  it('refuses to start on a broken config, saying where and what', async () => {
    const dir = makeTempDir();
    mkdirSync(join(dir, 'config', 'corral'), { recursive: true });
    const file = join(dir, 'config', 'corral', 'config.toml');
    writeFileSync(file, '[notify]\ncooldown = 30\n');
    const result = await runCli(['daemon', '--socket', join(dir, 's.sock')], { env: { ...process.env, XDG_CONFIG_HOME: join(dir, 'config') } });
    assert.equal(result.code, 1);
    assert.match(result.stderr, new RegExp(`${file}:2: unknown key "notify.cooldown".*\\[config_invalid\\]`));
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a config that is a FIFO, a device or over 64 KiB at once, saying what it is', async () => {
    const dir = makeTempDir();
    const fifo = join(dir, 'fifo.toml');
    mkfifo(fifo);
    const zero = join(dir, 'zero.toml');
    symlinkSync('/dev/zero', zero);
    const big = join(dir, 'big.toml');
    writeFileSync(big, `# ${'x'.repeat(70_000)}\n`);
    const expected = [
      [fifo, /fifo\.toml: is a FIFO, not a regular file.*\[config_invalid\]/],
      [zero, /zero\.toml: is a character device, not a regular file/],
      [big, /big\.toml: \d+ bytes exceed the config size limit of 65536/],
    ] as const;
    for (const [file, message] of expected) {
      // The guard only catches a hang: a blocking open never returns.
      const result = await runCli(['daemon', '--socket', join(dir, 's.sock'), '--config', file], { timeoutMs: 60_000 });
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, message);
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a --config file that does not exist', async () => {
    const dir = makeTempDir();
    const result = await runCli(['daemon', '--socket', join(dir, 's.sock'), '--config', join(dir, 'nope.toml')]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /nope\.toml: cannot read the config \(ENOENT\)/);
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts on the embedded defaults when the file is absent, and on a --config file', async () => {
    const dir = makeTempDir();
    writeFileSync(join(dir, 'corral.toml'), '[arbiter]\ndebounce_ms = 200\n');
    const daemon = await startDaemon({ dir, args: ['--config', join(dir, 'corral.toml')] });
    await daemon.dispose();
    rmSync(dir, { recursive: true, force: true });
    const plain = await startDaemon();
    await plain.dispose();
  });
});
