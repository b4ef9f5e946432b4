// How to launch and drive each recorded CLI against the mock model. Versions are pinned in
// agent-clis/package.json; screen patterns come from watching each CLI's screens.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export interface LaunchContext {
  port: number;
  home: string;
  project: string;
  /** The version being launched. */
  version: string;
}

export interface AgentSpec {
  id: string;
  /** The npm package the CLI ships in. */
  package: string;
  /** The pinned version (agent-clis/package.json). */
  version: string;
  /** Path under agent-clis/node_modules/.bin. */
  bin: string;
  /** Newer versions installed next to the pinned one: version to path under agent-clis/node_modules. */
  others?: Record<string, string>;
  args: string[];
  env(ctx: LaunchContext): Record<string, string>;
  setup(ctx: LaunchContext): void;
  /** On screen when the composer is ready for typing. */
  idle: RegExp;
  /** On screen while the CLI is still starting under a drawn composer: startup waits for it to go. */
  starting?: RegExp;
  /**
   * The composer is drawn before the CLI reads keys (grok-cli: the tty still echoes what is typed):
   * startup also waits for the terminal to leave canonical mode.
   */
  waitForRawMode?: boolean;
  /** On screen while a turn runs; label 03 waits for it. */
  working: RegExp;
  /** On screen when the shell permission prompt is live; null for a CLI that never asks (Pi). */
  permission: RegExp | null;
  /** Keys that accept the permission prompt once. */
  approve: string;
  startupTimeoutMs: number;
  /** Keys that pick the first answer of the question form and submit it. */
  answerQuestion?: string;
  /** Multiplies every in-session wait: some CLIs are slow to start a turn on a 2-core machine. */
  patience?: number;
  /** Dialogs shown before the composer (folder trust): labelled blocked, then answered. */
  dialogs?: { pattern: RegExp; keys: string | string[]; label: string; notice?: boolean }[];
}

/** The executable of one installed version of an agent CLI. */
export function binPath(spec: AgentSpec, version: string): string {
  if (version === spec.version) return join(here, 'node_modules', '.bin', spec.bin);
  const other = spec.others?.[version];
  if (!other) throw new Error(`unknown_version: ${spec.id} ${version} is not installed (known: ${[spec.version, ...Object.keys(spec.others ?? {})].join(', ')})`);
  return join(here, 'node_modules', other);
}

const CLAUDE_API_KEY = 'sk-ant-api03-mock-key-for-offline-live-checks-0123456789';

const writeJson = (path: string, value: unknown): void => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(value, null, 2));
};

export const agents: Record<string, AgentSpec> = {
  gemini: {
    id: 'gemini',
    package: '@google/gemini-cli',
    version: '0.61.0',
    bin: 'gemini',
    args: [],
    env: ({ port }) => ({
      GEMINI_API_KEY: 'mock-gemini-key',
      GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${port}`,
    }),
    setup: ({ home }) => {
      writeJson(join(home, '.gemini', 'settings.json'), {
        security: { auth: { selectedType: 'gemini-api-key' } },
        general: { disableAutoUpdate: true, disableUpdateNag: true },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
      });
    },
    idle: /Type your message/,
    working: /esc to cancel/,
    permission: /Allow once|Allow execution|Yes, allow/i,
    approve: '\r',
    startupTimeoutMs: 60000,
    dialogs: [{ pattern: /Do you trust the files in this folder\?/, keys: '\r', label: '00-blocked-folder-trust' }],
  },
  qwen: {
    id: 'qwen',
    package: '@qwen-code/qwen-code',
    version: '0.15.10',
    bin: 'qwen',
    others: { '0.24.4': 'qwen-code-0.24.4/cli-entry.js' },
    args: [],
    env: ({ port }) => ({
      OPENAI_API_KEY: 'mock-openai-key',
      OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
      OPENAI_MODEL: 'mock-model',
    }),
    setup: ({ home }) => {
      writeJson(join(home, '.qwen', 'settings.json'), {
        security: { auth: { selectedType: 'openai' } },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { disableAutoUpdate: true },
      });
    },
    idle: /Type your message/,
    starting: /Initializing\.\.\./,
    working: /esc to cancel/,
    permission: /Allow once|Yes, allow|Allow execution/i,
    approve: '\r',
    startupTimeoutMs: 60000,
  },
  opencode: {
    id: 'opencode',
    package: 'opencode-ai',
    version: '1.18.33',
    bin: 'opencode',
    args: [],
    env: ({ port }) => ({
      OPENCODE_CONFIG_CONTENT: JSON.stringify({
        $schema: 'https://opencode.ai/config.json',
        model: 'mock/mock-model',
        provider: {
          mock: {
            npm: '@ai-sdk/openai-compatible',
            name: 'Mock',
            options: { baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'mock-key' },
            models: { 'mock-model': { name: 'Mock Model', tool_call: true } },
          },
        },
        permission: { bash: 'ask' },
        autoupdate: false,
        share: 'disabled',
      }),
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_MODELS_FETCH: '1',
    }),
    setup: () => {},
    idle: /ctrl\+p|tab agents|Ask anything/i,
    working: /esc interrupt/,
    permission: /Allow once|Permission required|Allow always/i,
    approve: '\r',
    startupTimeoutMs: 120000,
    // Measured: 26 s of init at startup and several seconds before the first model request.
    patience: 4,
  },
  copilot: {
    id: 'copilot',
    package: '@github/copilot',
    version: '1.0.102',
    bin: 'copilot',
    args: [],
    env: ({ port }) => ({
      COPILOT_OFFLINE: 'true',
      COPILOT_PROVIDER_BASE_URL: `http://127.0.0.1:${port}/v1`,
      COPILOT_PROVIDER_TYPE: 'openai',
      COPILOT_PROVIDER_API_KEY: 'mock-key',
      COPILOT_MODEL: 'mock-model',
      COPILOT_AUTO_UPDATE: 'false',
    }),
    setup: () => {},
    // From 80 columns down the footer drops "? help": "/ commands" is still there.
    idle: /\/ commands/,
    working: /Working/,
    permission: /Do you want to run|Yes, and don't ask|No, and tell Copilot/i,
    approve: '\r',
    startupTimeoutMs: 120000,
    // Below 80 columns the dialog's title scrolls off the top: its question is still there.
    dialogs: [{ pattern: /Confirm folder trust|Do you trust the files in this folder\?/, keys: '\r', label: '00-blocked-folder-trust' }],
  },
  claude: {
    id: 'claude',
    package: '@anthropic-ai/claude-code',
    version: '2.1.197',
    bin: 'claude',
    others: { '2.1.328': 'claude-code-2.1.328/bin/claude.exe', '2.1.332': 'claude-code-2.1.332/bin/claude.exe' },
    args: [],
    env: ({ port }) => ({
      ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`,
      ANTHROPIC_API_KEY: CLAUDE_API_KEY,
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    }),
    // Onboarding done and the key approved, or it checks a remote host and exits. The project's trust
    // is left out on purpose: the trust dialog is the startup dialog.
    setup: ({ home, version }) => {
      writeJson(join(home, '.claude.json'), {
        hasCompletedOnboarding: true,
        lastOnboardingVersion: version,
        theme: 'dark',
        customApiKeyResponses: { approved: [CLAUDE_API_KEY.slice(-20)], rejected: [] },
      });
      // 2.1.328 starts in auto mode, which approves or refuses tools by itself: ask, as before.
      writeJson(join(home, '.claude', 'settings.json'), { permissions: { defaultMode: 'default' } });
    },
    // 2.1.328 drops "? for shortcuts" from the footer: an empty composer line is the cue there.
    idle: /\? for shortcuts|^❯\s*$/m,
    working: /esc to interrupt/,
    permission: /Do you want to proceed\?|esc to cancel · tab to amend/,
    approve: '\r',
    startupTimeoutMs: 60000,
    // 2.1.328 lists "No, exit" first and selected, without numbers: move down, then confirm.
    dialogs: [
      { pattern: /❯ No, exit\s+Yes, I trust this folder/, keys: ['\x1b[B', '\r'], label: '00-blocked-folder-trust' },
      { pattern: /trust this folder/i, keys: '\r', label: '00-blocked-folder-trust' },
      // 2.1.328 sometimes offers auto mode as the default right after trust: keep manual mode.
      { pattern: /Make auto mode your default permission mode\?/, keys: ['\x1b[B', '\r'], label: '00-blocked-auto-mode-offer' },
    ],
  },
  codex: {
    id: 'codex',
    package: '@openai/codex',
    version: '0.171.0',
    bin: 'codex',
    args: [],
    env: () => ({ MOCK_API_KEY: 'mock-key' }),
    // The project is a git repository, so Codex asks for trust 2 to 5 s after drawing its composer.
    setup: ({ home, port, project }) => {
      spawnSync('git', ['init', '-q'], { cwd: project });
      mkdirSync(join(home, '.codex'), { recursive: true });
      writeFileSync(join(home, '.codex', 'config.toml'), [
        'model = "mock-model"',
        'model_provider = "mock"',
        'approval_policy = "on-request"',
        'sandbox_mode = "read-only"',
        'check_for_update_on_startup = false',
        '',
        '[model_providers.mock]',
        'name = "Mock"',
        `base_url = "http://127.0.0.1:${port}/v1"`,
        'wire_api = "responses"',
        'env_key = "MOCK_API_KEY"',
        '',
      ].join('\n'));
    },
    // The splash draws the same composer before the app-server is up; the ready screen adds the
    // model's status line under it, and only then is typed text taken.
    idle: /^› [\s\S]*mock-model/m,
    working: /esc to interrupt/,
    permission: /Would you like to run|Press enter to confirm or esc to cancel/i,
    approve: '\r',
    startupTimeoutMs: 60000,
    dialogs: [{ pattern: /Trust and continue/, keys: '\r', label: '00-blocked-folder-trust' }],
  },
  // Pi: a custom OpenAI-compatible provider in ~/.pi/agent/models.json; offline mode skips the
  // update check and telemetry. Pi has no permission prompts: tools run at once.
  pi: {
    id: 'pi',
    package: '@mariozechner/pi-coding-agent',
    version: '0.73.1',
    bin: 'pi',
    args: ['--offline', '--provider', 'mock', '--model', 'mock-model'],
    env: () => ({ PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1', PI_TELEMETRY: '0' }),
    setup: ({ home, port }) => {
      writeJson(join(home, '.pi', 'agent', 'models.json'), {
        providers: {
          mock: {
            baseUrl: `http://127.0.0.1:${port}/v1`,
            api: 'openai-completions',
            apiKey: 'mock-key',
            compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
            models: [{ id: 'mock-model' }],
          },
        },
      });
    },
    idle: /mock-model/,
    working: /Working\.\.\./,
    permission: null,
    approve: '',
    startupTimeoutMs: 90000,
  },
  // Cline: `cline auth` stores an OpenAI-compatible provider (base URL at the mock) before the
  // launch; the TUI with auto-approve off asks before each tool.
  // Continue's CLI (`cn`): an OpenAI-compatible model in its YAML config; no account, no hub. The
  // config path is given relative to the project folder, which the recorders make beside HOME.
  continue: {
    id: 'continue',
    package: '@continuedev/cli',
    version: '1.5.47',
    bin: 'cn',
    args: ['--config', '../home/.continue/config.yaml'],
    env: () => ({ CONTINUE_TELEMETRY_ENABLED: '0' }),
    setup: ({ home, port }) => {
      mkdirSync(join(home, '.continue'), { recursive: true });
      writeFileSync(join(home, '.continue', 'config.yaml'), [
        'name: Mock', 'version: 1.0.0', 'schema: v1', 'models:', '  - name: mock-model', '    provider: openai', '    model: mock-model',
        `    apiBase: http://127.0.0.1:${port}/v1`, '    apiKey: mock-key', '    roles: [chat, edit, apply]', '',
      ].join('\n'));
    },
    idle: /Ask anything, @ for context|^│ ● \S/m,
    working: /esc to interrupt/,
    permission: /Would you like to continue\?/,
    approve: '\r',
    startupTimeoutMs: 60000,
  },
  cline: {
    id: 'cline',
    package: 'cline',
    version: '3.0.65',
    bin: 'cline',
    args: ['--tui', '--auto-approve', 'false'],
    env: () => ({}),
    setup: ({ home, port }) => {
      const bin = join(here, 'node_modules', '.bin', 'cline');
      const run = spawnSync(bin, ['auth', '-p', 'openai', '-k', 'mock-key', '-m', 'mock-model', '-b', `http://127.0.0.1:${port}/v1`], {
        env: { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, HOME: home },
        encoding: 'utf8',
        timeout: 180_000,
      });
      if (run.status !== 0) throw new Error(`cline_auth_failed: status ${run.status} signal ${run.signal} ${run.error?.message ?? ''} ${run.stderr || run.stdout}`);
    },
    idle: /What can I do for you\?|Cline is ready for your message|^❯ Ask anything\.\.\./im,
    working: /Thinking\.\.\.|esc to cancel/i,
    permission: /Approve tool call\?|\[y\] Approve|Let Cline use this tool|execute (this )?command\?/i,
    approve: 'y',
    startupTimeoutMs: 90000,
    // A promotion drawn over the composer at start; any key but Enter closes it. A notice, not a
    // question about the work: dismissed without a label.
    dialogs: [{ pattern: /Press Enter to open, any other key to close/, keys: '\x1b', label: 'promotion', notice: true }],
  },
  // grok-cli (the community CLI, not xAI's Grok Build): OpenAI chat completions at GROK_BASE_URL.
  // Its confirmation dialog asks before every shell command and file edit.
  'grok-cli': {
    id: 'grok-cli',
    package: '@vibe-kit/grok-cli',
    version: '0.0.34',
    bin: 'grok',
    args: [],
    env: ({ port }) => ({
      GROK_API_KEY: 'mock-key',
      GROK_BASE_URL: `http://127.0.0.1:${port}/v1`,
      GROK_MODEL: 'mock-model',
    }),
    setup: () => {},
    idle: /Ask me anything\.\.\.|auto-edit: off/,
    working: /esc to interrupt/,
    permission: /Do you want to proceed with this operation\?/,
    approve: '\r',
    startupTimeoutMs: 90000,
    waitForRawMode: true,
  },
};
