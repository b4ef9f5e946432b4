import { hostname } from 'node:os';
import { CorralError } from '../../protocol/errors.ts';
import { safeChoices } from '../../protocol/prompt.ts';
import { DEFAULT_PUSH_STATES, PUSH_ANSWER, PUSH_KEY, PUSH_LIST, PUSH_PEEK, PUSH_REMOVE, PUSH_SET, PUSH_SUBSCRIBE, PUSH_TEST } from '../../protocol/methods/push.ts';
import type { DaemonCore } from '../agents/core.ts';
import type { CorralConfig } from '../config/index.ts';
import type { EventHub } from '../events/event-hub.ts';
import { implement, type DaemonPart, type HandlerBinding, type RequestContext } from '../rpc/handler.ts';
import { AnswerTokens, type TokenGrant, type TokenRefusal } from './answer-tokens.ts';
import { DeviceStore, MAX_DEVICES, deviceId, deviceView, devicesFilePath } from './device-store.ts';
import { PushChannel, type AttentionSource } from './push-channel.ts';
import { testPayload } from './push-payload.ts';
import { PushSender, endpointProblem } from './push-sender.ts';
import { WEBHOOK_TEST } from '../../protocol/methods/webhook.ts';
import { loadVapidKeys, vapidKeyPath, type VapidKeys } from './vapid-keys.ts';
import { Webhook } from './webhook.ts';
import { testWebhook } from './webhook-test.ts';
import { WebhookStore, webhookFilePath } from './webhook-store.ts';

/** The VAPID `sub` when `[notify.push] contact` is not set (RFC 8292 asks for one; some push services require a real one). */
const DEFAULT_CONTACT = 'mailto:corral@localhost';

interface PushOptions {
  attention: AttentionSource;
  hub: EventHub;
  socketPath: string;
  /** `[notify]`: its `push` and `webhook` tables and its `quiet_hours`. */
  config: CorralConfig['notify'];
  /** Answers the pane's prompt as `agent.answer` does (the composition root hands its handler in). */
  answer(grant: TokenGrant, context: RequestContext): Promise<unknown>;
  /** Whether the approval policy may answer a whole prompt itself in a moment (the composition root asks the policy). */
  policyMayAnswer?(paneId: string, promptId: string): boolean;
}

/**
 * Web Push (docs/web.md, "On your phone"): the devices, the channel that pushes each inbox item to them,
 * and the answer tokens of their buttons. The key pair is made when first needed (a device subscribes or
 * asks for the key), so a daemon nobody subscribes to writes no file.
 */
export function startPush(core: DaemonCore, options: PushOptions): DaemonPart & { readonly channel: PushChannel } {
  const { log } = core;
  const devices = new DeviceStore(devicesFilePath(options.socketPath), log);
  const tokens = new AnswerTokens();
  let keys: VapidKeys | null = null;
  const vapid = () => (keys ??= loadVapidKeys(vapidKeyPath(options.socketPath), log));
  const push = options.config.push;
  const contact = push.contact ?? DEFAULT_CONTACT;
  const sender = new PushSender(vapid, contact, log);
  const host = hostname();
  const newestItem = () => Math.max(0, ...options.attention.list().map((item) => item.id));
  const { url, ...webhookConfig } = options.config.webhook;
  const webhook =
    url === null
      ? undefined
      : new Webhook({
          config: { url, ...webhookConfig },
          store: new WebhookStore(webhookFilePath(options.socketPath), newestItem(), log),
          tokens,
          buttons: safeChoices,
          host,
          ttlSeconds: push.ttlSeconds,
          log,
        });
  const channel = new PushChannel({
    attention: options.attention,
    hub: options.hub,
    devices,
    sender,
    tokens,
    buttons: safeChoices,
    ...(options.policyMayAnswer ? { policyMayAnswer: options.policyMayAnswer } : {}),
    host,
    ttlSeconds: push.ttlSeconds,
    quietHours: options.config.quietHours,
    ...(webhook ? { webhook } : {}),
    log,
  });

  /** The pane an answer names, as the tokens know it; a pane not there is no token's. */
  const paneIdOf = (pane: string | undefined): string | undefined => {
    if (pane === undefined) return undefined;
    try {
      return core.registry.resolve(pane).id;
    } catch {
      throw refused('invalid', 'the pane named is not the one the token was minted for');
    }
  };

  const handlers: HandlerBinding[] = [
    implement(PUSH_KEY, () => ({ publicKey: vapid().publicKey, contact: push.contact })),

    implement(PUSH_SUBSCRIBE, ({ subscription, states, label }) => {
      const problem = endpointProblem(subscription.endpoint) ?? keyProblem(subscription.keys);
      if (problem !== null) throw new CorralError('invalid_params', `${problem}; pass the JSON of the browser's PushSubscription`, { field: 'subscription' });
      vapid();
      const id = deviceId(subscription.endpoint);
      const fromItem = newestItem();
      const device = {
        id,
        subscription: { endpoint: subscription.endpoint, expirationTime: subscription.expirationTime ?? null, keys: subscription.keys },
        states: [...new Set(states ?? DEFAULT_PUSH_STATES)],
        label: label ?? null,
        createdAt: Date.now(),
        fromItem,
        pushed: [],
        sent: 0,
        lastStatus: null,
      };
      if (!devices.put(device)) throw new CorralError('push_limit', `the daemon pushes to at most ${MAX_DEVICES} devices; remove one with \`corral notify push remove ID\``, { limit: MAX_DEVICES });
      log.info({ device: id, states: device.states }, 'push device subscribed');
      return { device: deviceView(device) };
    }),

    implement(PUSH_LIST, () => ({ devices: devices.list().map(deviceView) })),

    implement(PUSH_REMOVE, ({ id }) => ({ removed: devices.remove(id) })),

    implement(PUSH_SET, ({ id, states, workspaces, quietHours, label }) => {
      const change = {
        ...(states !== undefined ? { states: [...new Set(states)] } : {}),
        ...(workspaces !== undefined ? { workspaces: [...new Set(workspaces)] } : {}),
        ...(quietHours !== undefined ? { quietHours } : {}),
        ...(label !== undefined ? { label } : {}),
      };
      const device = devices.update(id, change);
      if (!device) throw new CorralError('push_device_not_found', `no push device ${id}; \`corral notify push list\` names them`, { id });
      log.info({ device: id, ...change }, 'push device changed');
      // What its quiet hours held, or its new choices want, goes now.
      channel.offerAll();
      return { device: deviceView(device) };
    }),

    implement(PUSH_TEST, async ({ id }) => {
      const targets = id === undefined ? devices.list() : devices.list().filter((device) => device.id === id);
      if (id !== undefined && targets.length === 0) throw new CorralError('push_device_not_found', `no push device ${id}; \`corral notify push list\` names them`, { id });
      const results = await Promise.all(
        targets.map(
          (device) =>
            new Promise<{ id: string; status: number | null; error: string | null }>((resolve) =>
              channel.deliver(device, testPayload(host), null, (status, error) => resolve({ id: device.id, status, error })),
            ),
        ),
      );
      return { results };
    }),

    implement(PUSH_ANSWER, async ({ token, choice, pane }, context) => {
      const grant = tokens.spend(token, choice, paneIdOf(pane));
      if ('refused' in grant) throw refused(grant.refused, REFUSALS[grant.refused]);
      try {
        await options.answer(grant, context);
      } catch (error) {
        // The prompt went between the push and the tap: nothing was typed.
        if (error instanceof CorralError && GONE.has(error.code)) throw refused('prompt_changed', `${REFUSALS.prompt_changed} (${error.message})`);
        // The keys were typed and the dialog stayed: an answer all the same, which the page shows.
        if (!(error instanceof CorralError && error.code === 'timeout')) throw error;
      }
      log.info({ pane: grant.pane, promptId: grant.promptId, choice: grant.choice }, 'answered from a notification');
      return { outcome: 'answered' as const, pane: grant.pane, promptId: grant.promptId, choice: grant.choice };
    }),
  ];
  handlers.push(
    implement(PUSH_PEEK, ({ token, choice, pane }) => {
      const grant = tokens.peek(token, choice, paneIdOf(pane));
      if ('refused' in grant) throw refused(grant.refused, REFUSALS[grant.refused]);
      const about = grant.about ?? { label: grant.choice, agent: null, paneName: null, question: '' };
      return { pane: grant.pane, promptId: grant.promptId, choice: grant.choice, label: about.label, agent: about.agent, paneName: about.paneName, host, question: about.question };
    }),
  );
  handlers.push(
    implement(WEBHOOK_TEST, () => {
      if (webhook === undefined) throw new CorralError('webhook_not_configured', 'no webhook is set: add `[notify.webhook]` with a `url` to config.toml, then start the daemon again (`corral daemon stop`, then `corral daemon`; agents keep running)');
      return testWebhook(webhook);
    }),
  );
  return { channel, handlers, dispose: () => (channel.dispose(), sender.dispose(), webhook?.dispose()) };
}

/** Errors of `agent.answer` that mean the prompt the token was for is no longer on the pane; nothing was typed. */
const GONE = new Set<string>(['prompt_changed', 'agent_not_blocked', 'choice_not_offered', 'pane_not_found', 'pane_exited', 'agent_not_found']);

const REFUSALS: Record<TokenRefusal, string> = {
  prompt_changed: 'the prompt this button answered is no longer on the pane; nothing was typed',
  expired: 'this button expired (or the daemon restarted since the push); nothing was typed',
  used: 'this button was used already; nothing was typed again',
  invalid: 'this token does not answer that choice or that pane; nothing was typed',
};

function refused(reason: TokenRefusal, message: string): CorralError {
  return new CorralError('answer_token_refused', `${message}: open the agent's page to answer`, { reason });
}

/** RFC 8291: a P-256 public key (65 bytes, uncompressed) and a 16-byte auth secret. */
function keyProblem(keys: { p256dh: string; auth: string }): string | null {
  const point = Buffer.from(keys.p256dh, 'base64url');
  if (point.length !== 65 || point[0] !== 4) return 'keys.p256dh is not an uncompressed P-256 public key';
  if (Buffer.from(keys.auth, 'base64url').length !== 16) return 'keys.auth is not a 16-byte secret';
  return null;
}
