import assert from 'node:assert/strict';
import { test } from 'node:test';
import { shortReason } from '../../src/client/fleet/short-reason.ts';

const SSH = 'cannot reach the daemon on host box2 (me@box2): ssh lost or could not make the connection (exit 255): ';

test("a host's reason in a word or two, from its code and ssh's own words", () => {
  const cases: [string | null, string, string][] = [
    ['daemon_unreachable', `${SSH}ssh: connect to host 10.0.0.2 port 22: Connection refused`, 'unreachable'],
    ['daemon_unreachable', `${SSH}ssh: connect to host 10.0.0.2 port 22: No route to host`, 'unreachable'],
    ['daemon_unreachable', `${SSH}me@10.0.0.2: Permission denied (publickey).`, 'auth failed'],
    ['daemon_unreachable', `${SSH}ssh: connect to host 10.0.0.2 port 22: Connection timed out`, 'timed out'],
    ['daemon_unreachable', `${SSH}Timeout, server 10.0.0.2 not responding.`, 'timed out'],
    ['daemon_unreachable', `${SSH}ssh: Could not resolve hostname box2: Name or service not known`, 'unknown host'],
    ['daemon_unreachable', `${SSH}Host key verification failed.`, 'host key refused'],
    ['daemon_unreachable', `${SSH}Connection to 10.0.0.2 closed by remote host.`, 'connection lost'],
    ['daemon_unreachable', 'host box2: the daemon on the host closed the connection (it stopped or restarted; agents keep running)', 'connection lost'],
    ['daemon_unreachable', 'cannot reach the daemon on host box2 (me@box2): corral on the host exited with 127: bash: line 1: corral: command not found', 'no corral'],
    ['daemon_unreachable', 'cannot reach the daemon on host box2 (me@box2): corral on the host exited with 4: no daemon answers at /run/user/1000/corral/corral.sock (ENOENT)', 'no daemon'],
    ['timeout', 'host box2 did not answer agent.list within 20 s; it was disconnected and is tried again', 'timed out'],
    ['frame_too_large', 'host box2 sent a line longer than 1 MiB', 'broke the protocol'],
    ['bad_reply', 'host box2 sent a line that is not JSON', 'broke the protocol'],
    ['daemon_unreachable', 'something no rule names', 'unreachable'],
  ];
  for (const [code, reason, short] of cases) assert.equal(shortReason(code, reason), short, reason);
  assert.equal(shortReason(null, null), null, 'a connected host has none');
});
