import { loadPolicy } from '../../policy/load-policy.ts';
import { PolicyError } from '../../policy/policy-error.ts';
import { EMPTY_POLICY, type Policy } from '../../policy/policy-spec.ts';
import { CorralError } from '../../protocol/errors.ts';
import { POLICY_CHECK, POLICY_LOG, POLICY_PAUSE, POLICY_RESUME, POLICY_STATUS } from '../../protocol/methods/policy.ts';
import { POLICY_HOOK_REQUEST } from '../../protocol/methods/policy-hook.ts';
import type { DaemonCore } from '../agents/core.ts';
import type { EventHub } from '../events/event-hub.ts';
import { implement, type DaemonPart } from '../rpc/handler.ts';
import { bound } from '../agents/reporter-binding.ts';
import { AuditLog } from './audit-log.ts';
import { PolicyService, type AnswerPrompt } from './policy-service.ts';

export interface PolicyPart extends DaemonPart {
  /** Reads the policy files again and swaps the whole policy, or throws `policy_invalid` and keeps it. */
  reload(files: readonly string[]): void;
  /** Whether the policy may answer a whole prompt itself in a moment (PolicyService.mayAnswerAtOnce). */
  mayAnswerAtOnce(paneId: string, promptId: string): boolean;
}

/** Reads the policy of the config at `configPath`; a PolicyError is the wire's `policy_invalid`. */
function readPolicy(configPath: string | null, files: readonly string[]): Policy {
  if (configPath === null) return EMPTY_POLICY;
  try {
    return loadPolicy(configPath, files);
  } catch (error) {
    if (error instanceof PolicyError) throw new CorralError('policy_invalid', `${error.message}; the daemon keeps the policy it had`, { file: error.file, line: error.line });
    throw error;
  }
}

/**
 * The approval policy part: the policy beside config.toml (a broken one at start is logged and no
 * prompt is answered until a reload reads it whole), its service, and the `policy.*` methods.
 */
export function startPolicy(
  core: DaemonCore,
  options: { hub: EventHub; answer: AnswerPrompt; configPath: string | null; files: readonly string[]; auditPath: string },
): PolicyPart {
  let policy: Policy = EMPTY_POLICY;
  try {
    policy = readPolicy(options.configPath, options.files);
  } catch (error) {
    core.log.error({ err: error }, 'the policy cannot be read: no prompt is answered by policy until it is fixed and the config reloaded');
  }
  if (policy.rules.length > 0) core.log.info({ files: policy.files, rules: policy.rules.length, mode: policy.mode }, 'policy loaded');
  const service = new PolicyService(core, options.hub, new AuditLog(options.auditPath, core.log), options.answer, policy);
  return {
    mayAnswerAtOnce: (paneId, promptId) => service.mayAnswerAtOnce(paneId, promptId),
    reload: (files) => {
      service.use(readPolicy(options.configPath, files));
      core.log.info({ files: service.policy.files, rules: service.policy.rules.length, mode: service.policy.mode }, 'policy reloaded');
    },
    handlers: [
      implement(POLICY_STATUS, () => service.status()),
      implement(POLICY_PAUSE, () => service.setPaused(true)),
      implement(POLICY_RESUME, () => service.setPaused(false)),
      implement(POLICY_CHECK, ({ target }) => {
        const pane = core.registry.resolve(target);
        const { prompt, decision } = service.check(pane);
        const agent = core.agents.find(pane)?.view().agent ?? null;
        return {
          prompt,
          decision: decision && prompt ? { pane: { id: pane.id, name: pane.name }, agent, promptId: prompt.id, mode: service.mode(), ...decision } : null,
          last: service.lastDecision(pane.id),
        };
      }),
      // Bound as a hook report is: only a process under the pane's own agent is given its decision.
      implement(POLICY_HOOK_REQUEST, ({ target, source, pid, ...request }, context) => {
        const pane = core.registry.resolve(target);
        const agent = core.agents.find(pane);
        if (agent === undefined) return { behavior: null, message: null, reason: 'pane_exited' };
        const summary = `policy ${request.tool}`;
        const refused = bound(agent.arbiter, { source, ...(pid !== undefined ? { pid } : {}) }, context, (caller) => {
          if (caller.declaredPid !== undefined && caller.declaredPid !== caller.pid) {
            return agent.arbiter.refuse(source, 'pid_mismatch', `the request says pid ${caller.declaredPid}, the socket's peer is pid ${caller.pid}`);
          }
          return agent.arbiter.bindCaller(source, caller.pid!, summary) ?? { accepted: true, changes: [] };
        });
        if (!refused.accepted) return { behavior: null, message: null, reason: refused.reason ?? 'not_in_pane' };
        return service.decideHook(pane, request);
      }),
      implement(POLICY_LOG, ({ limit, target }) => ({
        decisions: service.auditLog.recent(limit ?? 100, target === undefined ? undefined : core.registry.resolve(target).id),
      })),
    ],
    dispose: () => service.dispose(),
  };
}
