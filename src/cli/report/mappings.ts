import type { HookAction, Payload } from './action.ts';
import { mapClaude } from './claude.ts';
import { mapCodex } from './codex.ts';
import { mapGemini } from './gemini.ts';
import { mapOpencode } from './opencode.ts';
import { permissionRequest, type ToolRequest } from './permission.ts';

/** How each agent CLI hands its hook payload over, and what its events mean. */
export interface HookMapping {
  /** The agent id of the bundled manifest. */
  agent: string;
  /** Codex's notify passes its JSON as the last argument; the others write it to stdin. */
  payloadFrom: 'stdin' | 'last-argument';
  map: (payload: Payload) => HookAction;
  /** The tool request a permission hook asks about, which the policy may decide (docs/policy.md, the hook path). */
  permission?: (payload: Payload) => ToolRequest | null;
}

export const HOOK_MAPPINGS: Readonly<Record<string, HookMapping>> = Object.freeze({
  claude: { agent: 'claude', payloadFrom: 'stdin', map: mapClaude, permission: permissionRequest },
  qwen: { agent: 'qwen', payloadFrom: 'stdin', map: mapClaude, permission: permissionRequest },
  gemini: { agent: 'gemini', payloadFrom: 'stdin', map: mapGemini },
  codex: { agent: 'codex', payloadFrom: 'last-argument', map: mapCodex },
  opencode: { agent: 'opencode', payloadFrom: 'stdin', map: mapOpencode },
});
