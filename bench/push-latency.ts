// Latency from a permission form's last byte reaching the PTY to its Web Push reaching a local push
// service (harness/push-service.ts: web-push-testing checks the VAPID JWT and decrypts the aes128gcm
// payload), through the daemon's inbox, its push channel and `web-push`; and the payload's size.
// Run: node --import tsx bench/push-latency.ts   (CORRAL_BENCH_TRIALS, default 50)
//
// The program (bench/lib/blocking-agent.ts) draws a permission form on "b" and stamps the moment on
// CLOCK_MONOTONIC; the push service stamps each request's arrival on the same clock.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DaemonConnection } from '../src/cli/with-daemon.ts';
import { AGENT_WAIT, PANE_KILL, PANE_SEND, PANE_SPAWN, PUSH_KEY, PUSH_SUBSCRIBE } from '../src/protocol/methods/index.ts';
import { startDaemon } from '../harness/daemon.ts';
import { summary } from '../harness/figures.ts';
import { LocalPushService } from '../harness/push-service.ts';
import { waitFor } from '../harness/wait.ts';
import { lastStamp, writeBlockingAgent } from './lib/blocking-agent.ts';

const TRIALS = Number(process.env.CORRAL_BENCH_TRIALS ?? 50);

const dir = mkdtempSync(join(tmpdir(), 'corral-bench-push-'));
const service = await LocalPushService.start();
try {
  const config = join(dir, 'config.toml');
  // Only leaving blocked is debounced; a short window keeps the run quick. Entering blocked, the path measured, never is.
  writeFileSync(config, '[arbiter]\ndebounce_ms = 60\n[notify.push]\ncontact = "mailto:bench@example.org"\n');
  const daemon = await startDaemon({ dir, args: ['--config', config] });
  const client = await DaemonConnection.connect(daemon.socket);
  const samples: number[] = [];
  let payloadBytes = 0;
  let encryptedBytes = 0;
  try {
    const device = await service.subscribe((await client.call(PUSH_KEY, {})).publicKey);
    await client.call(PUSH_SUBSCRIBE, { subscription: { endpoint: device.endpoint, keys: device.keys } });
    const program = writeBlockingAgent(dir, 'monotonic');
    const stampFile = join(dir, 'stamps');
    await client.call(PANE_SPAWN, { command: process.execPath, args: [program], name: 'bench', cwd: dir, env: { CORRAL_AGENT: 'claude', STAMP_FILE: stampFile } });
    await client.call(AGENT_WAIT, { targets: ['bench'], until: ['idle'], timeoutMs: 60_000 });
    for (let i = 0; i < TRIALS; i += 1) {
      // Each trial: the attention push of the form, then (back to idle acknowledges the item) its quiet replacement.
      await client.call(PANE_SEND, { target: 'bench', text: 'b' });
      await waitFor(() => service.requests.length >= 2 * i + 1, { what: `push ${i + 1}`, timeoutMs: 30_000 });
      const request = service.requests[2 * i]!;
      const message = service.messages(device)[2 * i] as { kind: string };
      if (message.kind !== 'attention' || request.status !== 201) throw new Error(`trial ${i}: expected the attention push, got ${message.kind} (${request.status})`);
      samples.push(request.at - lastStamp(stampFile));
      payloadBytes = Buffer.byteLength(JSON.stringify(message));
      encryptedBytes = Number(request.headers['content-length']);
      await client.call(PANE_SEND, { target: 'bench', text: 'i' });
      await waitFor(() => service.requests.length >= 2 * i + 2, { what: `the replacement push ${i + 1}`, timeoutMs: 30_000 });
    }
    await client.call(PANE_KILL, { target: 'bench' });
  } finally {
    client.dispose();
    await daemon.dispose();
  }
  const push = summary(samples);
  console.log(JSON.stringify({ bench: 'push-latency', trials: TRIALS, push, payloadBytes, encryptedBytes }));
  console.log(
    `permission form's last byte to its Web Push at the local push service over ${TRIALS} trials: median ${push.medianMs} ms, p99 ${push.p99Ms} ms, max ${push.maxMs} ms; payload ${payloadBytes} bytes of JSON, ${encryptedBytes} bytes encrypted`,
  );
} finally {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
}
