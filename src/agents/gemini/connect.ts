// "Connect Agents…" for Gemini CLI: our hook on SessionStart, BeforeAgent, BeforeTool, AfterTool,
// AfterAgent and SessionEnd in the workspace's `.gemini/settings.json` (settings.ts). Hooks are on by
// default in 0.61 (`hooksConfig.enabled`); what the user must know is said in `notes`: the folder must
// be trusted (0.61 runs no hook at all in an untrusted folder, and headless mode refuses to start).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ConnectorParts, HookTarget } from '../common/connector';
import { ENGLISH } from '../../shared/l10n';
import { hookCommand } from '../common/hookCommand';
import { readTextFile } from '../common/jsonEdit';
import { connectGeminiFile, disconnectGeminiFile, geminiConnectionState, geminiHooksOff, geminiSettingsPath } from './settings';

function command(target: HookTarget): string {
  return hookCommand({ ...target, agent: 'gemini' });
}

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function onPath(name: string, env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue;
    const p = path.join(dir, process.platform === 'win32' ? `${name}.cmd` : name);
    if (fs.existsSync(p)) return p;
  }
  return null;
}

export const geminiConnector: ConnectorParts = {
  files: (workspace) => [geminiSettingsPath(workspace)],
  connect(workspace, target, l10n = ENGLISH) {
    const r = connectGeminiFile(workspace, command(target));
    const notes = [
      l10n.t(
        'Gemini CLI runs hooks only in a trusted folder: trust this folder when Gemini CLI asks (or add it to ~/.gemini/trustedFolders.json).',
      ),
    ];
    const off = geminiHooksOff(r.text, l10n);
    if (off) notes.push(off);
    return { files: [r.file], changed: r.changed, notes };
  },
  disconnect(workspace) {
    const r = disconnectGeminiFile(workspace);
    return { files: [r.file], changed: r.changed };
  },
  state: (workspace, target) => geminiConnectionState(readTextFile(geminiSettingsPath(workspace)), command(target)),
  detect(workspace, env, home) {
    if (isDir(path.join(workspace, '.gemini'))) return '.gemini in this workspace';
    if (home && isDir(path.join(home, '.gemini'))) return '~/.gemini';
    return onPath('gemini', env) ? 'gemini on PATH' : null;
  },
};
