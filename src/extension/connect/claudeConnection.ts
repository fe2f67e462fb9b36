// Connect / Disconnect Claude Code: our hooks in `.claude/settings.local.json`, with absolute paths
// to a stable copy of the CLI (global storage, refreshed when the extension updates, so connected
// settings keep working) and to this workspace's store, run by a Node that exists on this machine.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { replaceFile } from '../../core/storeFiles/fsx';
import { connectClaudeFile, connectionState, disconnectClaudeFile, readSettingsFile, settingsPath } from '../../agents/claude/settings';
import { hookCommand } from '../../agents/common/hookCommand';
import type { HookSpec } from '../../agents/common/hooksFile';
import type { AgentConnectionState } from '../../agents/common/connector';
import { onPath } from '../../agents/common/evidence';

const BUNDLES = ['cli.js', 'hook.js', 'commands.js'];

/** Copies the CLI bundles into global storage when missing or from another version; returns cli.js. */
export function installCli(extensionPath: string, globalStorage: string, version: string): string {
  const dir = path.join(globalStorage, 'cli');
  const stamp = path.join(dir, 'VERSION');
  let current = '';
  try {
    current = fs.readFileSync(stamp, 'utf8');
  } catch {
    /* first install */
  }
  const srcStamp = `${version}:${BUNDLES.map((b) => fs.statSync(path.join(extensionPath, 'dist', b)).size).join(',')}`;
  if (current !== srcStamp || !BUNDLES.every((b) => fs.existsSync(path.join(dir, b)))) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (const b of BUNDLES) {
      // Atomic: a hook running right now sees old or new, never half.
      replaceFile(path.join(dir, b), (tmp) => fs.copyFileSync(path.join(extensionPath, 'dist', b), tmp), {
        tmp: path.join(dir, `.${b}.tmp`),
      });
    }
    fs.writeFileSync(stamp, srcStamp);
  }
  return path.join(dir, 'cli.js');
}

/** The first executable named `names[i]` on a PATH string (absolute folders only), by real path, or undefined. */
export function findOnPath(names: readonly string[], pathVar: string | undefined): string | undefined {
  for (const name of names) {
    const p = onPath(name, { PATH: pathVar ?? '' });
    if (p) return fs.realpathSync(p);
  }
  return undefined;
}

/** `node` on PATH, else VS Code's own runtime in Node mode. */
export function nodeRuntime(env: NodeJS.ProcessEnv = process.env): { node: string; env?: Record<string, string> } {
  const found = onPath('node', env);
  if (found) return { node: fs.realpathSync(found) };
  return { node: process.execPath, env: { ELECTRON_RUN_AS_NODE: '1' } };
}

export class ClaudeConnection {
  constructor(
    private readonly cli: () => string,
    private readonly store: string,
  ) {}

  hook(): HookSpec {
    const rt = nodeRuntime();
    return {
      command: hookCommand({ node: rt.node, cli: this.cli(), store: this.store, agent: 'claude', ...(rt.env ? { env: rt.env } : {}) }),
    };
  }

  state(folder: string): AgentConnectionState {
    try {
      return connectionState(readSettingsFile(settingsPath(folder)), this.hook());
    } catch {
      return 'disconnected';
    }
  }

  anyConnected(folders: readonly vscode.WorkspaceFolder[]): boolean {
    return folders.some((f) => this.state(f.uri.fsPath) !== 'disconnected');
  }

  connect(folder: string): ReturnType<typeof connectClaudeFile> {
    return connectClaudeFile(folder, this.hook());
  }

  disconnect(folder: string): ReturnType<typeof disconnectClaudeFile> {
    return disconnectClaudeFile(folder);
  }
}
