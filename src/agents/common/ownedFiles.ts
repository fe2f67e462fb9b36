// Connect for agents that read whole files of ours rather than an entry in a shared one (OpenCode's
// plugin, Kiro's hook files): each file is written when missing or ours (it carries the Connect
// marker), a file of that name without the marker is the user's and is left alone (and said so),
// Disconnect removes exactly our files and the folders they leave empty.
import * as path from 'node:path';
import { CONNECT_MARKER } from './hookCommand';
import type { AgentConnectionState } from './connector';
import { editFile, readTextFile, removeEmptyDirs } from './jsonEdit';
import { ENGLISH, type Localizer } from '../../shared/l10n';

export interface OwnedFile {
  /** Relative to the workspace, `/`-separated. */
  rel: string;
  text: string;
}

export const isOurFile = (text: string | undefined): boolean => text !== undefined && text.includes(CONNECT_MARKER);

const abs = (workspace: string, rel: string) => path.join(workspace, ...rel.split('/'));

/** Writes `files` (a user's own file of that name is left alone, and said so in `l10n`'s language). */
export function connectOwned(workspace: string, files: readonly OwnedFile[], agentName: string, l10n: Localizer = ENGLISH) {
  const written: string[] = [];
  const notes: string[] = [];
  let changed = false;
  for (const f of files) {
    const file = abs(workspace, f.rel);
    const before = readTextFile(file);
    if (before !== undefined && !isOurFile(before)) {
      notes.push(l10n.t("{0} is your own file: it was left as it is, so {1} does not run Agent Rewind's copy.", f.rel, agentName));
      continue;
    }
    written.push(file);
    if (editFile(file, (t) => (t === undefined || isOurFile(t) ? { text: f.text } : null))) changed = true;
  }
  return { files: written, changed, notes };
}

/** Removes every file of ours among `rels`; the folders left empty go too (up to the workspace). */
export function disconnectOwned(workspace: string, rels: readonly string[]): { files: string[]; changed: boolean } {
  const files: string[] = [];
  let changed = false;
  for (const rel of rels) {
    const file = abs(workspace, rel);
    if (!isOurFile(readTextFile(file))) continue;
    files.push(file);
    if (editFile(file, (t) => (isOurFile(t) ? { remove: true } : null))) {
      changed = true;
      removeEmptyDirs(path.dirname(file), workspace);
    }
  }
  return { files, changed };
}

/** Connected when every file is ours as Connect writes it now; outdated when some are ours but older. */
export function ownedState(workspace: string, files: readonly OwnedFile[]): AgentConnectionState {
  const texts = files.map((f) => readTextFile(abs(workspace, f.rel)));
  if (!texts.some(isOurFile)) return 'disconnected';
  return files.every((f, i) => texts[i] === f.text) ? 'connected' : 'outdated';
}
