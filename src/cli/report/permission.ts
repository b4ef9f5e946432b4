import { POLICY_HOOK_REQUEST, type PolicyHookAnswer } from '../../protocol/methods/policy-hook.ts';
import { HOOK_REQUEST_LIMITS } from '../../protocol/methods/policy-hook.ts';
import { text, type Payload } from './action.ts';
import { sendOnce } from './send.ts';

/**
 * How long a permission hook waits for the policy's decision (docs/policy.md, the hook path): the
 * agent waits for its hook, so a daemon that does not answer in time leaves the dialog to the person.
 */
export const POLICY_WAIT_MS = 2000;

/** A tool request as a permission hook's payload names it, exact. */
export interface ToolRequest {
  tool: string;
  command?: string;
  path?: string;
}

/**
 * Claude Code's (and Qwen Code's) `PermissionRequest`: `tool_name` and `tool_input` (`command` of a
 * shell tool, `file_path` of a file tool; test/fixtures/hooks/claude/PermissionRequest-1.json). Null
 * for any other event, or a payload whose values do not fit what the daemon takes.
 */
export function permissionRequest(payload: Payload): ToolRequest | null {
  if (text(payload, 'hook_event_name') !== 'PermissionRequest') return null;
  const tool = text(payload, 'tool_name');
  const input = typeof payload['tool_input'] === 'object' && payload['tool_input'] !== null ? (payload['tool_input'] as Payload) : {};
  if (tool === undefined || tool.length > HOOK_REQUEST_LIMITS.tool) return null;
  const command = text(input, 'command');
  const path = text(input, 'file_path') ?? text(input, 'path') ?? text(input, 'notebook_path');
  if ((command?.length ?? 0) > HOOK_REQUEST_LIMITS.command || (path?.length ?? 0) > HOOK_REQUEST_LIMITS.path) return null;
  return { tool, ...(command !== undefined ? { command } : {}), ...(path !== undefined ? { path } : {}) };
}

/** The policy's allow or deny for the request, or null (no decision, no daemon, no answer in time). */
export async function askPolicy(socket: string, params: ToolRequest & { target: string; source: string; agent: string; pid?: number }, deadline: number): Promise<PolicyHookAnswer | null> {
  const outcome = await sendOnce<PolicyHookAnswer>(socket, POLICY_HOOK_REQUEST.name, params, deadline);
  if (!outcome.ok || (outcome.result.behavior !== 'allow' && outcome.result.behavior !== 'deny')) return null;
  return outcome.result;
}

/** The hook's stdout that gives the agent the decision: the agent takes its dialog down (or never draws it). */
export function permissionOutput(answer: PolicyHookAnswer): string {
  const decision = answer.behavior === 'deny' ? { behavior: 'deny', message: answer.message ?? 'denied by policy' } : { behavior: 'allow' };
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } })}\n`;
}
