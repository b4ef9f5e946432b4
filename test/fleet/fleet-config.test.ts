import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ClientError, hostByName, loadFleetConfig, loadHosts, splitHostTarget } from '../../src/client/index.ts';
import { ConfigError, parseConfig } from '../../src/daemon/config/index.ts';
import { CorralError } from '../../src/protocol/errors.ts';
import { isGroupTarget } from '../../src/protocol/pane-target.ts';
import { makeTempDir } from '../../harness/daemon.ts';

const HOSTS = `
[notify]
cooldown_ms = 1000

[[hosts]]
name = "build"
ssh = "me@build.lan"

[[hosts]]
name = "gpu-1"
ssh = "gpu"
command = ["node", "/opt/corral/bin/corral"]
ssh_options = ["-p", "2222"]
socket = "/run/user/1000/corral/corral.sock"

[fleet]
by_default = true
`;

function configFile(text: string): string {
  const dir = makeTempDir('corral-fleet-config-');
  mkdirSync(join(dir, 'corral'));
  const path = join(dir, 'corral', 'config.toml');
  writeFileSync(path, text);
  return path;
}

describe('[[hosts]] in config.toml', () => {
  it('is accepted by the daemon, which ignores it', () => {
    const config = parseConfig(HOSTS, 'config.toml');
    assert.equal(config.notify.cooldownMs, 1000);
    assert.equal('hosts' in config, false);
  });

  it('is read by the client with its defaults filled in', () => {
    const fleet = loadFleetConfig(configFile(HOSTS));
    assert.equal(fleet.byDefault, true);
    assert.deepEqual(fleet.hosts, [
      { name: 'build', ssh: 'me@build.lan', command: ['corral'], sshOptions: [], socket: null },
      { name: 'gpu-1', ssh: 'gpu', command: ['node', '/opt/corral/bin/corral'], sshOptions: ['-p', '2222'], socket: '/run/user/1000/corral/corral.sock' },
    ]);
  });

  it('names this machine local, and refuses a name it does not hold', () => {
    const path = configFile(HOSTS);
    assert.equal(hostByName('local', { configPath: path, socket: '/tmp/x.sock' }).socket, '/tmp/x.sock');
    assert.equal(hostByName('build', { configPath: path }).ssh, 'me@build.lan');
    assert.throws(
      () => hostByName('nowhere', { configPath: path }),
      (error: unknown) => error instanceof ClientError && error.code === 'host_not_found' && /known: local, build, gpu-1/.test(error.message),
    );
  });

  it('has no hosts without a file', () => {
    assert.deepEqual(loadHosts(join(makeTempDir(), 'absent.toml')), []);
  });

  for (const [what, text, line, message] of [
    ['an unknown key', '[[hosts]]\nname = "a"\nssh = "a"\nport = 22\n', 4, /unknown key "hosts.port"/],
    ['a missing ssh', '[[hosts]]\nname = "a"\n', 1, /"ssh" of host "a" must be an ssh destination/],
    ['an ssh that reads as an option', '[[hosts]]\nname = "a"\nssh = "-oProxyCommand=evil"\n', 3, /not starting with "-"/],
    ['the name local', '[[hosts]]\nname = "local"\nssh = "a"\n', 2, /this machine's own name/],
    ['a name a target could misread', '[[hosts]]\nname = "a@b"\nssh = "a"\n', 2, /"name" must be 1 to 63 letters/],
    ['two hosts of one name', '[[hosts]]\nname = "a"\nssh = "a"\n\n[[hosts]]\nname = "a"\nssh = "b"\n', 6, /two \[\[hosts\]\] are named "a"/],
    ['an empty command', '[[hosts]]\nname = "a"\nssh = "a"\ncommand = []\n', 4, /"command" must be an array of 1 to 32 strings/],
    ['a relative socket', '[[hosts]]\nname = "a"\nssh = "a"\nsocket = "corral.sock"\n', 4, /absolute path/],
    ['an unknown fleet key', '[fleet]\nspan = true\n', 2, /unknown key "fleet.span"/],
  ] as const) {
    it(`refuses ${what}, in the daemon and in the client alike, naming the line`, () => {
      assert.throws(
        () => parseConfig(text, 'config.toml'),
        (error: unknown) => error instanceof ConfigError && error.line === line && message.test(error.message),
      );
      assert.throws(
        () => loadFleetConfig(configFile(text)),
        (error: unknown) => error instanceof CorralError && error.code === 'config_invalid' && error.details.line === line && message.test(error.message),
      );
    });
  }
});

describe('a host-qualified target', () => {
  it('splits at its last @ after the first character', () => {
    assert.deepEqual(splitHostTarget('api@box1'), { target: 'api', host: 'box1' });
    assert.deepEqual(splitHostTarget('w1:p3@box1'), { target: 'w1:p3', host: 'box1' });
    assert.deepEqual(splitHostTarget('@build@box1'), { target: '@build', host: 'box1' });
    assert.deepEqual(splitHostTarget('test-*@gpu-1'), { target: 'test-*', host: 'gpu-1' });
  });

  it('is never a pane id, a name or a workspace group read another way', () => {
    assert.deepEqual(splitHostTarget('@build'), { target: '@build', host: null });
    assert.deepEqual(splitHostTarget('api'), { target: 'api', host: null });
    assert.deepEqual(splitHostTarget('w1:p3'), { target: 'w1:p3', host: null });
    assert.equal(isGroupTarget(splitHostTarget('api@box1').target), false);
    assert.equal(isGroupTarget(splitHostTarget('@build@box1').target), true);
  });
});
