// Which store a connected workspace records into, read back from the hook configuration Connect
// wrote: the CLI run inside such a workspace with no `--store` and no AGENT_REWIND_STORE uses the
// store named by the nearest folder's config (DESIGN §5). The files are the connectors' own (and
// the ones their agents also read); the command is taken apart as the agent's shell would (the
// quoting of claude/settings.ts's hookCommand), never by a pattern over the text.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'jsonc-parser';
import { lex } from '../core/shell/lex';
import { hasMarker } from './claude/settings';
import { CONNECTORS } from './connectors';

/** A config file larger than this is nobody's hook file: not read. */
const MAX_CONFIG_BYTES = 1024 * 1024;

export interface HookStore {
  /** The store folder, absolute. */
  store: string;
  /** The config file that names it. */
  file: string;
}

/** The argument after `--store` in a hook command Connect wrote (its marker present), or null. */
export function storeOfHookCommand(command: string, dialect: 'sh' | 'powershell' = 'sh'): string | null {
  if (!hasMarker(command)) return null;
  let words: string[];
  try {
    words = lex(command, dialect)
      .filter((t) => t.kind === 'word')
      .map((t) => t.value);
  } catch {
    return null;
  }
  const i = words.indexOf('--store');
  if (i < 0 || !words.includes('hook')) return null;
  const store = words[i + 1];
  return store && !store.startsWith('--') ? store : null;
}

/** Every string in a JSON (or JSONC) document, depth first. */
function jsonStrings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) jsonStrings(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) jsonStrings(x, out);
  return out;
}

/** The store named by one config file's hook commands: JSON settings, hook scripts, OpenCode's plugin. */
export function storeInConfig(file: string, text: string): string | null {
  if (/\.(json|hook)$/.test(file)) {
    for (const s of jsonStrings(parse(text, [], { allowTrailingComma: true }))) {
      const store = storeOfHookCommand(s);
      if (store) return store;
    }
    return null;
  }
  const dialect = file.endsWith('.ps1') ? 'powershell' : 'sh';
  for (const line of text.split(/\r?\n/)) {
    const store = storeOfHookCommand(line, dialect);
    if (store) return store;
  }
  // OpenCode's plugin runs the CLI itself: its store is a JSON string constant.
  const m = /^const STORE = ("(?:[^"\\]|\\.)*");$/m.exec(text);
  if (m && hasMarker(text)) {
    try {
      return JSON.parse(m[1]!) as string;
    } catch {
      return null;
    }
  }
  return null;
}

/** The config files that may hold our hooks in `folder`: each connector's, and what its agent also reads. */
export function hookConfigFiles(folder: string): string[] {
  const out: string[] = [];
  for (const c of CONNECTORS) for (const f of [...c.files(folder), ...(c.alsoReads?.(folder) ?? [])]) if (!out.includes(f)) out.push(f);
  return out;
}

function readConfig(file: string): string | null {
  try {
    const st = fs.statSync(file);
    // A regular file of a sane size only: a FIFO would block, a device or a huge file is not a config.
    if (!st.isFile() || st.size > MAX_CONFIG_BYTES) return null;
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/**
 * The store named by a connected agent's hook configuration in `start` or the nearest folder above
 * it that has one; null when none does. A relative store is taken from the folder of the config.
 */
export function findHookStore(start: string): HookStore | null {
  let dir = path.resolve(start);
  for (;;) {
    for (const file of hookConfigFiles(dir)) {
      const text = readConfig(file);
      const store = text === null ? null : storeInConfig(file, text);
      if (store) return { store: path.resolve(dir, store), file };
    }
    const up = path.dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}
