import type { AgentPrompt } from '../protocol/prompt.ts';

/** What a prompt asks to do, as a policy matches it: the tool (lower case) and its command or path. */
export interface PromptSubject {
  tool: string | null;
  command: string | null;
  path: string | null;
}

const NONE: PromptSubject = { tool: null, command: null, path: null };

/** Tool names as the agents draw them, to one lower-case name each. */
const TOOLS: Record<string, string> = {
  'bash command': 'bash',
  bash: 'bash',
  shell: 'bash',
  'shell command': 'bash',
  run_commands: 'bash',
  run_shell_command: 'bash',
  'edit file': 'edit',
  edit: 'edit',
  'create file': 'write',
  'write file': 'write',
  writefile: 'write',
  write_file: 'write',
  write: 'write',
  'read file': 'read',
  readfile: 'read',
  read_file: 'read',
  read: 'read',
  fetch: 'webfetch',
  'web fetch': 'webfetch',
  webfetch: 'webfetch',
  web_fetch: 'webfetch',
  'web search': 'websearch',
  websearch: 'websearch',
  web_search: 'websearch',
  'tool use': 'mcp',
  'mcp tool': 'mcp',
};

const FILE_TOOLS = new Set(['edit', 'write', 'read']);

function toolName(drawn: string): string {
  return TOOLS[drawn.trim().toLowerCase()] ?? drawn.trim().toLowerCase();
}

/** A command of one or more lines, or a path, as the tool takes it. */
function subjectOf(tool: string, lines: readonly string[]): PromptSubject {
  const text = lines.map((line) => line.trim()).filter((line) => line !== '').join('\n');
  if (text === '') return { tool, command: null, path: null };
  if (tool === 'bash') return { tool, command: text, path: null };
  return FILE_TOOLS.has(tool) ? { tool, command: null, path: text } : { tool, command: null, path: null };
}

/**
 * The tool and its command or path, from the prompt's text as its reader kept it (the forms of the
 * bundled agents: test/fixtures/prompts/), or from the `<tool>: <subject>` text a hook gave it.
 * What is not read is null: a rule that names a command or path then does not match.
 */
export function promptSubject(prompt: AgentPrompt): PromptSubject {
  const lines = prompt.text.split('\n');
  if (prompt.source.startsWith('report:')) {
    const match = /^([A-Za-z_][\w.-]*): (.+)$/s.exec(prompt.text);
    return match ? subjectOf(toolName(match[1]!), [match[2]!]) : NONE;
  }
  // Claude Code: the tool's title, then the command or file and the model's description of it, in
  // either order (2.1.197 the command first, 2.1.328 and later the description first), then `Do you
  // want to ...`. A text alone is the subject; two cannot be told apart, so neither is taken.
  const title = lines[0] !== undefined ? TOOLS[lines[0].trim().toLowerCase()] : undefined;
  const question = lines.findIndex((line) => /^Do you want to /.test(line));
  if (title !== undefined && question > 1) return question === 2 ? subjectOf(title, [lines[1]!]) : { tool: title, command: null, path: null };
  // Gemini CLI and Qwen Code: `? Shell <command> [←]`, the command, `Allow execution of ...?`.
  const gemini = /^\? (\S+) /.exec(lines[0] ?? '');
  if (gemini && lines.length >= 3) return subjectOf(toolName(gemini[1]!), lines.slice(1, -1));
  // Codex, OpenCode, Cline: the command on a line of its own after `$ `.
  const dollar = lines.findIndex((line) => line.startsWith('$ '));
  if (dollar >= 0) return subjectOf('bash', [lines.slice(dollar).join('\n').slice(2)]);
  // Copilot: the command, then `Do you want to run this command?`.
  if (/^Do you want to run this command\?$/.test(lines.at(-1) ?? '') && lines.length >= 2) return subjectOf('bash', lines.slice(0, -1));
  return NONE;
}

/**
 * What a hook's tool request asks to do, from its payload (the hook path): exact, no screen read. The
 * command counts for a shell tool only and the path for a file tool only, as on the screen.
 */
export function requestSubject(tool: string, input: { command?: string; path?: string }): PromptSubject {
  const name = toolName(tool);
  if (name === 'bash') return { tool: name, command: input.command !== undefined && input.command.trim() !== '' ? input.command : null, path: null };
  return { tool: name, command: null, path: FILE_TOOLS.has(name) && input.path !== undefined && input.path !== '' ? input.path : null };
}
