// A typed mirror of the `agentRewind.*` configuration, and its copy in the store's config.json
// (hooks run outside VS Code and read their settings from there).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { EffectOverride, StoreConfig } from '../core/storeFiles/config';
import { patternProblem } from '../core/effects/overrides';
import { replaceFileIfChanged } from '../core/storeFiles/fsx';
import { STORE_FILE } from '../core/storeFiles/names';

export interface Settings {
  retentionDays: number;
  autoCleanUp: boolean;
  maxFileSizeMB: number;
  excludes: string[];
  maxScanFiles: number;
  effectOverrides: EffectOverride[];
  storeDirectory: string;
  /** 0: no limit. */
  maxStorageGB: number;
}

/**
 * Effect overrides decide what a rewind lists as "will not be undone" and which compensation commands it
 * offers: only the user's own settings count, never a repository's `.vscode/settings.json`.
 */
function userEffectOverrides(c: vscode.WorkspaceConfiguration): { value: EffectOverride[]; ignoredWorkspace: boolean } {
  const i = c.inspect<EffectOverride[]>('effectOverrides');
  const ignoredWorkspace = i?.workspaceValue !== undefined || i?.workspaceFolderValue !== undefined;
  return { value: i?.globalValue ?? i?.defaultValue ?? [], ignoredWorkspace };
}

/** True when a workspace tried to set `effectOverrides` (ignored); the caller says so once. */
export function workspaceSetsEffectOverrides(): boolean {
  return userEffectOverrides(vscode.workspace.getConfiguration('agentRewind')).ignoredWorkspace;
}

export function readSettings(): Settings {
  const c = vscode.workspace.getConfiguration('agentRewind');
  return {
    retentionDays: c.get<number>('retentionDays', 30),
    autoCleanUp: c.get<boolean>('autoCleanUp', true),
    maxFileSizeMB: c.get<number>('maxFileSizeMB', 10),
    excludes: c.get<string[]>('excludes', []),
    maxScanFiles: c.get<number>('maxScanFiles', 50000),
    effectOverrides: userEffectOverrides(c).value,
    storeDirectory: c.get<string>('storeDirectory', ''),
    maxStorageGB: c.get<number>('maxStorageGB', 0),
  };
}

export function toStoreConfig(s: Settings): StoreConfig {
  return {
    maxFileBytes: Math.round(s.maxFileSizeMB * 1024 * 1024),
    keepDays: s.retentionDays,
    excludes: s.excludes,
    effects: s.effectOverrides,
    maxScanFiles: s.maxScanFiles,
    maxStorageBytes: s.maxStorageGB > 0 ? Math.round(s.maxStorageGB * 1024 ** 3) : 0,
  };
}

/** Overrides whose `command` pattern is refused (see core/effects/overrides.ts), with the reason. */
export function refusedOverrides(s: Settings): string[] {
  const out: string[] = [];
  for (const o of s.effectOverrides) {
    const why = o.command === undefined ? null : patternProblem(o.command);
    if (why) out.push(`the effect override pattern ${JSON.stringify(o.command!.slice(0, 80))} is not used: ${why}.`);
  }
  return out;
}

/**
 * Writes config.json only when its content changes (hooks read it on every call). Returns what was
 * refused in the settings (the caller reports it), or null when nothing changed.
 */
export function writeStoreConfig(storeDir: string, s: Settings): string[] | null {
  const text = JSON.stringify(toStoreConfig(s), null, 2) + '\n';
  if (!replaceFileIfChanged(path.join(storeDir, STORE_FILE.config), text)) return null;
  return refusedOverrides(s);
}
