// Settings files for a scripted Gemini CLI run (0.61), as found in its source and docs and proven by
// explore.ts:
//   ~/.gemini/settings.json     auth type (without it GOOGLE_GEMINI_BASE_URL selects the `gateway`
//                               auth type, which headless mode refuses: "Invalid auth method
//                               selected."), telemetry, usage statistics, update checks, IDE off;
//   <ws>/.gemini/settings.json  the hooks (project hooks run only in a trusted folder);
//   ~/.gemini/trustedFolders.json  `{ "<abs path>": "TRUST_FOLDER" | "TRUST_PARENT" | "DO_NOT_TRUST" }`
//                               (or GEMINI_CLI_TRUST_WORKSPACE=true / --skip-trust for one run).
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Every hook event 0.61 accepts (others are skipped with a warning). */
export const HOOK_EVENTS = [
  'SessionStart',
  'SessionEnd',
  'BeforeAgent',
  'AfterAgent',
  'BeforeModel',
  'AfterModel',
  'BeforeToolSelection',
  'BeforeTool',
  'AfterTool',
  'PreCompress',
  'Notification',
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/**
 * User settings that keep a run on loopback and quiet. `extra.general` is merged into ours (so
 * `{ general: { sessionRetention: { enabled: false } } }` keeps the update switches).
 */
export function userSettings(extra: Record<string, unknown> = {}): Record<string, unknown> {
  const { general, ...rest } = extra as { general?: Record<string, unknown> };
  return {
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false, ...general },
    ide: { enabled: false },
    ...rest,
  };
}

/**
 * The 0.61 work-around for google-gemini/gemini-cli#27368: with session retention on (the
 * default), every `--resume` leaves a metadata-only `session-<now>-<id8>.jsonl`, and the next
 * start of any other session deletes it together with the real chat of the same id8.
 */
export const KEEP_RESUMED_SESSIONS = { general: { sessionRetention: { enabled: false } } };

export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export interface RecorderOptions {
  /** The JSONL file the recorder appends to. */
  log: string;
  /** A JSON file `{ "<event>": <stdout object> }`: what the recorder answers per event. */
  replies?: string;
  /** Milliseconds (Gemini's unit; default 60000). */
  timeoutMs?: number;
  /** Extra environment for the hook process (the undocumented `env` field of a hook). */
  env?: Record<string, string>;
  events?: readonly HookEvent[];
}

/** `hooks` for settings.json: the recorder on every event, named `rec-<event>`. */
export function recorderHooks(o: RecorderOptions): Record<string, unknown[]> {
  const recorder = path.join(__dirname, '..', 'kit', 'recordHook.mjs');
  const hooks: Record<string, unknown[]> = {};
  for (const e of o.events ?? HOOK_EVENTS) {
    const command = [process.execPath, recorder, o.log, e, ...(o.replies ? [o.replies] : [])].map(shellQuote).join(' ');
    // Tool events take a regex matcher; lifecycle events an exact string (none = all).
    hooks[e] = [
      {
        ...(e === 'BeforeTool' || e === 'AfterTool' ? { matcher: '.*' } : {}),
        hooks: [{ type: 'command', name: `rec-${e}`, command, timeout: o.timeoutMs ?? 10000, ...(o.env ? { env: o.env } : {}) }],
      },
    ];
  }
  return hooks;
}

export function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
}

export const userSettingsPath = (home: string) => path.join(home, '.gemini', 'settings.json');
export const projectSettingsPath = (ws: string) => path.join(ws, '.gemini', 'settings.json');
export const trustedFoldersPath = (home: string) => path.join(home, '.gemini', 'trustedFolders.json');

/** Trusts `folder` the way the interactive trust dialog records it. */
export function trustFolder(home: string, folder: string, level: 'TRUST_FOLDER' | 'TRUST_PARENT' | 'DO_NOT_TRUST' = 'TRUST_FOLDER'): void {
  const file = trustedFoldersPath(home);
  let current: Record<string, string> = {};
  try {
    current = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    /* none yet */
  }
  writeJson(file, { ...current, [folder]: level });
}
