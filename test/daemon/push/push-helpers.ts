import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DaemonConnection } from '../../../src/cli/with-daemon.ts';
import { AGENT_WAIT, PANE_SPAWN, PUSH_KEY, PUSH_SUBSCRIBE } from '../../../src/protocol/methods/index.ts';
import type { MethodDecl } from '../../../src/protocol/method.ts';
import { CorralError } from '../../../src/protocol/errors.ts';
import { makeTempDir, startDaemon, type DaemonProcess } from '../../../harness/daemon.ts';
import { LocalPushService, type TestSubscription } from '../../../harness/push-service.ts';
import { FAKE_CLAUDE } from '../../helpers/session.ts';

/** The payload a device receives (src/daemon/push/push-payload.ts). */
export interface Pushed {
  kind: string;
  title: string;
  body: string;
  tag: string;
  item: number | null;
  url: string;
  pane: string | null;
  state: string | null;
  promptId: string | null;
  actions: { action: string; title: string; token: string }[];
}

/** A real daemon in its own folder, a local push service, and one device subscribed to the daemon through it. */
export class PushLab {
  daemon!: DaemonProcess;
  client!: DaemonConnection;
  device!: TestSubscription;
  deviceId!: string;

  private constructor(
    readonly dir: string,
    readonly service: LocalPushService,
  ) {}

  static async start(): Promise<PushLab> {
    const dir = makeTempDir();
    mkdirSync(join(dir, 'config', 'corral'), { recursive: true });
    writeFileSync(join(dir, 'config', 'corral', 'config.toml'), '[notify.push]\ncontact = "mailto:push-test@example.org"\nttl_s = 600\n');
    const lab = new PushLab(dir, await LocalPushService.start());
    await lab.restart();
    const { publicKey } = await lab.call(PUSH_KEY, {});
    lab.device = await lab.service.subscribe(publicKey);
    const { device } = await lab.call(PUSH_SUBSCRIBE, { subscription: { endpoint: lab.device.endpoint, expirationTime: null, keys: lab.device.keys }, label: 'test phone' });
    lab.deviceId = device.id;
    return lab;
  }

  /** Starts the daemon (again, on the same folder and socket, after a kill). */
  async restart(): Promise<void> {
    this.client?.dispose();
    this.daemon = await startDaemon({ dir: this.dir });
    this.client = await DaemonConnection.connect(this.daemon.socket);
  }

  call<P, R>(method: MethodDecl<P, R>, params: P): Promise<R> {
    return this.client.call(method, params);
  }

  async failure<P, R>(method: MethodDecl<P, R>, params: P): Promise<CorralError> {
    try {
      const result = await this.client.call(method, params);
      throw new Error(`${method.name} should fail, got ${JSON.stringify(result)}`);
    } catch (error) {
      if (error instanceof CorralError) return error;
      throw error;
    }
  }

  /** What the device received, decrypted. */
  pushed(): Pushed[] {
    return this.service.messages(this.device) as Pushed[];
  }

  /** A fake Claude in a named pane, idle; its keys logged to `keylog` when given. */
  async agent(name: string, keylog?: string): Promise<string> {
    const pane = await this.call(PANE_SPAWN, {
      command: process.execPath,
      args: [FAKE_CLAUDE],
      name,
      cwd: this.dir,
      env: { CORRAL_AGENT: 'claude', FAKE_WORK_MS: '300', ...(keylog ? { FAKE_KEYLOG: keylog } : {}) },
    });
    // A hang guard, not a figure: a loaded machine can take seconds to start a node process.
    await this.call(AGENT_WAIT, { targets: [name], until: ['idle'], timeoutMs: 60_000 });
    return pane.id;
  }

  async dispose(): Promise<void> {
    this.client?.dispose();
    await this.daemon?.dispose();
    await this.service.close();
  }
}
