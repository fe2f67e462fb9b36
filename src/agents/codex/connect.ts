// Connecting Codex: our hook in the workspace's `.codex/hooks.json` (Codex's project layer, in
// the shape Claude Code's settings use), merged with the user's hooks, idempotent, undone exactly
// by Disconnect. Two things Codex (0.171, verified by test/compat/codex) asks before it runs it:
//   - the project must be trusted (`[projects."<dir>"] trust_level = "trusted"` in
//     $CODEX_HOME/config.toml — what Codex asks the first time it runs in a folder); an untrusted
//     project's `.codex/` layer is not loaded at all;
//   - every hook must be trusted at its current hash (`/hooks` in the TUI, or `trustCodexHooks`
//     below, which does the same through `codex app-server`); an untrusted or edited hook is skipped
//     without a word.
// Timeouts are whole seconds (a fraction makes Codex drop the whole file); SessionEnd is capped at
// 3 s by Codex (with a startup warning above that). No matcher = every tool.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AgentConnectionState, AgentConnectResult, ConnectorParts, HookTarget } from '../common/connector';
import { HOOK_TIMEOUT_S, hookCommand, isConnectedHandler } from '../common/hookCommand';
import { connectHooks, disconnectHooksFile, type HooksFileFormat, hooksState } from '../common/hooksFile';
import { editFile, readTextFile } from '../common/jsonEdit';
import { AppServer } from './appServer';
import { CODEX_RECORDED_EVENTS } from './hookPayload';
import { ENGLISH, type Localizer } from '../../shared/l10n';

export const CODEX_HOOKS_FILE = path.join('.codex', 'hooks.json');

export const CODEX_HOOKS_FORMAT: HooksFileFormat = {
  what: 'The Codex hooks file (.codex/hooks.json)',
  events: CODEX_RECORDED_EVENTS,
  matcher: () => undefined,
  timeout: (event) => (event === 'SessionEnd' ? 3 : HOOK_TIMEOUT_S),
};

/** What Codex asks before it runs the hooks, in `l10n`'s language. */
const trustNote = (l10n: Localizer) =>
  l10n.t(
    'Codex runs these hooks only in a trusted project and once the hooks themselves are trusted: open Codex in this folder, trust it, and review them with /hooks (Agent Rewind offers to trust them for you).',
  );

function hooksFile(workspace: string): string {
  return path.join(workspace, CODEX_HOOKS_FILE);
}

function hookSpec(target: HookTarget): { command: string } {
  return { command: hookCommand({ ...target, agent: 'codex' }) };
}

export const codexConnector: ConnectorParts = {
  files: (workspace) => [hooksFile(workspace)],
  connect(workspace, target, l10n = ENGLISH): AgentConnectResult {
    const file = hooksFile(workspace);
    const changed = editFile(file, (t) => ({ text: connectHooks(t, hookSpec(target), CODEX_HOOKS_FORMAT) }));
    return { files: [file], changed, notes: [trustNote(l10n)] };
  },
  disconnect(workspace) {
    const { file, changed } = disconnectHooksFile(hooksFile(workspace), CODEX_HOOKS_FORMAT);
    // `.codex/` was created for our file alone: leave no empty folder behind.
    if (changed) {
      try {
        fs.rmdirSync(path.dirname(file));
      } catch {
        /* not empty, or gone: keep it */
      }
    }
    return { files: [file], changed };
  },
  state(workspace, target): AgentConnectionState {
    return hooksState(readTextFile(hooksFile(workspace)), hookSpec(target), CODEX_HOOKS_FORMAT);
  },
  detect(workspace, env, home) {
    if (fs.existsSync(path.join(workspace, '.codex'))) return path.join(workspace, '.codex');
    const codexHome = env.CODEX_HOME || path.join(home || os.homedir(), '.codex');
    if (fs.existsSync(codexHome)) return codexHome;
    for (const dir of (env.PATH ?? '').split(path.delimiter)) {
      if (!dir) continue;
      for (const name of process.platform === 'win32' ? ['codex.cmd', 'codex.exe'] : ['codex']) {
        const p = path.join(dir, name);
        if (fs.existsSync(p)) return p;
      }
    }
    return null;
  },
};

/**
 * Trusts our Connect-written hooks in `workspace` the way Codex's `/hooks` review does, through
 * `codex app-server` (`bin`: the `codex` executable; `env` must carry the user's CODEX_HOME, if
 * set). Only our own entries of `.codex/hooks.json` are trusted, never the user's. Returns the hook
 * keys it trusted and what Codex still reports as not trusted (e.g. the project itself is not trusted,
 * so Codex does not list the file's hooks at all).
 */
export async function trustCodexHooks(
  bin: string,
  workspace: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ trusted: string[]; untrusted: string[]; listed: number }> {
  const file = hooksFile(workspace);
  const server = await AppServer.start(bin, workspace, env);
  try {
    const ours = (h: { sourcePath: string; command?: string }) =>
      path.resolve(h.sourcePath) === path.resolve(file) &&
      (h.command === undefined || isConnectedHandler({ type: 'command', command: h.command }));
    const trusted = await server.trust(workspace, ours);
    const after = await server.hooksList(workspace);
    const mine = after.hooks.filter(ours);
    return { trusted, untrusted: mine.filter((h) => h.trustStatus !== 'trusted').map((h) => h.key), listed: mine.length };
  } finally {
    await server.close();
  }
}
