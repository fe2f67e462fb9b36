// Writes a throwaway CODEX_HOME for a scripted run: config.toml (our scripted model as a custom
// `model_providers` entry, no approvals, no sandbox, nothing phoning home, the workspace trusted) and
// hooks.json (the test recorder on every hook event Codex 0.171 knows). Hook trust is then either
// per invocation (`codex exec --dangerously-bypass-hook-trust`) or persisted through the app-server
// (see src/agents/codex/appServer.ts `trust`), exactly what Codex's /hooks review writes.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Every hook event of Codex 0.171 (app-server `HookEventName`), spelled as hooks.json wants it. */
export const CODEX_HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreModelRequest',
  'PostModelRequest',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PreCompact',
  'PostCompact',
  'SubagentStart',
  'SubagentStop',
  'Stop',
  'Interrupt',
  'SessionEnd',
] as const;

export const PROVIDER_ID = 'agent_rewind_mock';
export const API_KEY_VAR = 'AGENT_REWIND_MOCK_API_KEY';
/** A slug from Codex's bundled model catalog: with it Codex offers the freeform `apply_patch` tool
 * (an unknown slug gets "fallback metadata" and no apply_patch tool at all). */
export const MODEL = 'gpt-5.5';
/** MODEL's `upgrade.model` in the bundled catalog of Codex 0.171. */
export const MODEL_UPGRADE = 'gpt-6-sol';

const tomlString = (s: string) => JSON.stringify(s);

export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export interface CodexHomeOptions {
  codexHome: string;
  /** The scripted model's origin, e.g. http://127.0.0.1:4567 (`/v1` is added). */
  modelUrl: string;
  /** Folders to mark trusted (`[projects."<dir>"] trust_level = "trusted"`), so a project's .codex/ layer loads. */
  trustedProjects?: string[];
  /** Extra top-level TOML lines. */
  extraToml?: string;
}

/** config.toml: every network setting points at loopback or is off. */
export function configToml(o: CodexHomeOptions): string {
  const lines = [
    '# Written by test/compat/codex/codexHome.ts for a scripted, offline run.',
    `model = ${tomlString(MODEL)}`,
    `model_provider = ${tomlString(PROVIDER_ID)}`,
    'approval_policy = "never"',
    'sandbox_mode = "danger-full-access"',
    'check_for_update_on_startup = false',
    // ChatGPT login, plugins and apps talk to this origin; nothing answers there but our server (404).
    `chatgpt_base_url = ${tomlString(`${o.modelUrl}/backend-api/`)}`,
    'web_search = "disabled"',
    ...(o.extraToml ? [o.extraToml] : []),
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[feedback]',
    'enabled = false',
    '',
    // Plugins (on by default) sync the curated catalog from github.com (`git ls-remote
    // https://github.com/openai/plugins.git`) and look up api.github.com and chatgpt.com at startup:
    // with them off, strace shows no connection but to 127.0.0.1.
    '[features]',
    'plugins = false',
    '',
    // The interactive TUI (not `codex exec`) first offers the catalog's upgrade for MODEL ("Try new model /
    // Use existing model") and sends nothing until answered; recording that migration as seen is what the
    // TUI itself writes after the choice.
    '[notice.model_migrations]',
    `${tomlString(MODEL)} = ${tomlString(MODEL_UPGRADE)}`,
    '',
    `[model_providers.${PROVIDER_ID}]`,
    'name = "Agent Rewind scripted model"',
    `base_url = ${tomlString(`${o.modelUrl}/v1`)}`,
    `env_key = ${tomlString(API_KEY_VAR)}`,
    'wire_api = "responses"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
  ];
  for (const p of o.trustedProjects ?? []) lines.push('', `[projects.${tomlString(p)}]`, 'trust_level = "trusted"');
  return lines.join('\n') + '\n';
}

/** hooks.json with one command per event: `node kit/recordHook.mjs <log> <Event>`. */
export function recorderHooksJson(hookLog: string, opts: { node?: string; events?: readonly string[]; timeout?: number } = {}): string {
  const node = opts.node ?? process.execPath;
  const recorder = path.join(__dirname, '..', 'kit', 'recordHook.mjs');
  const hooks: Record<string, unknown[]> = {};
  for (const e of opts.events ?? CODEX_HOOK_EVENTS) {
    hooks[e] = [
      { hooks: [{ type: 'command', command: [node, recorder, hookLog, e].map(shellQuote).join(' '), timeout: opts.timeout ?? 30 }] },
    ];
  }
  return JSON.stringify({ hooks }, null, 2) + '\n';
}

/** Creates CODEX_HOME with config.toml and (unless `hooks: false`) hooks.json. */
export function writeCodexHome(o: CodexHomeOptions & { hookLog?: string; hooksJson?: string }): void {
  fs.mkdirSync(o.codexHome, { recursive: true });
  fs.writeFileSync(path.join(o.codexHome, 'config.toml'), configToml(o));
  const hooks = o.hooksJson ?? (o.hookLog ? recorderHooksJson(o.hookLog) : undefined);
  if (hooks) fs.writeFileSync(path.join(o.codexHome, 'hooks.json'), hooks);
}
