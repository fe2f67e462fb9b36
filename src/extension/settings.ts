// A typed mirror of the `agentRewind.*` configuration, and its copy in the store's config.json
// (hooks run outside VS Code and read their settings from there).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { EffectOverride, StoreConfig } from '../core/config';

export interface Settings {
  retentionDays: number;
  autoCleanUp: boolean;
  maxFileSizeMB: number;
  excludes: string[];
  maxScanFiles: number;
  effectOverrides: EffectOverride[];
  storeDirectory: string;
}

export function readSettings(): Settings {
  const c = vscode.workspace.getConfiguration('agentRewind');
  return {
    retentionDays: c.get<number>('retentionDays', 30),
    autoCleanUp: c.get<boolean>('autoCleanUp', true),
    maxFileSizeMB: c.get<number>('maxFileSizeMB', 10),
    excludes: c.get<string[]>('excludes', []),
    maxScanFiles: c.get<number>('maxScanFiles', 50000),
    effectOverrides: c.get<EffectOverride[]>('effectOverrides', []),
    storeDirectory: c.get<string>('storeDirectory', ''),
  };
}

export function toStoreConfig(s: Settings): StoreConfig {
  return {
    maxFileBytes: Math.round(s.maxFileSizeMB * 1024 * 1024),
    keepDays: s.retentionDays,
    excludes: s.excludes,
    effects: s.effectOverrides,
    maxScanFiles: s.maxScanFiles,
  };
}

/** Writes config.json only when its content changes (hooks read it on every call). */
export function writeStoreConfig(storeDir: string, s: Settings): void {
  const file = path.join(storeDir, 'config.json');
  const text = JSON.stringify(toStoreConfig(s), null, 2) + '\n';
  try {
    if (fs.readFileSync(file, 'utf8') === text) return;
  } catch {
    /* first write */
  }
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text, { mode: 0o600 });
  fs.renameSync(tmp, file);
}
