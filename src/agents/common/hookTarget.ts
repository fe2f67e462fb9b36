// What a hook Connect wrote runs, read back from the agent's config file: the Node, the CLI, the store
// and the environment of `hookCommand` (claude/settings.ts), taken apart as the agent's shell would
// (the same lexer as effects'), never by a pattern over the text. Used to find the store a workspace
// records into (hookStore.ts) and to tell a working hook from an older one (connectors.ts).
import * as fs from 'node:fs';
import { parse } from 'jsonc-parser';
import { lex } from '../../core/shell/lex';
import { ASSIGN } from '../../core/shell/parse';
import type { HookTarget } from './connector';
import { hasMarker } from './hookCommand';

/** A config file larger than this is nobody's hook file: not read. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * `[VAR=value …] [exec] <node> <cli> hook <agent> [event] --store <store> --connected-by=agent-rewind`
 * → its node, cli, store and env; null for a command Connect did not write or one without a store.
 */
export function targetOfHookCommand(command: string, dialect: 'sh' | 'powershell' = 'sh'): HookTarget | null {
  if (!hasMarker(command)) return null;
  let words: string[];
  try {
    words = lex(command, dialect)
      .filter((t) => t.kind === 'word')
      .map((t) => t.value);
  } catch {
    return null;
  }
  const h = words.indexOf('hook');
  const s = words.indexOf('--store');
  const store = words[s + 1];
  if (h < 2 || s < h || !store || store.startsWith('--')) return null;
  const env: Record<string, string> = {};
  for (const w of words.slice(0, h - 2)) {
    if (!ASSIGN.test(w)) continue;
    const i = w.indexOf('=');
    env[w.slice(0, i)] = w.slice(i + 1);
  }
  return { node: words[h - 2]!, cli: words[h - 1]!, store, ...(Object.keys(env).length ? { env } : {}) };
}

/** Every string in a JSON (or JSONC) document, depth first. */
function jsonStrings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) jsonStrings(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) jsonStrings(x, out);
  return out;
}

/** OpenCode's plugin runs the CLI itself: its paths are JSON constants (opencode/plugin.ts). */
function pluginTarget(text: string): HookTarget | null {
  if (!hasMarker(text)) return null;
  const constant = (name: string): unknown => {
    const m = new RegExp(`^const ${name} = (.*);$`, 'm').exec(text);
    try {
      return m ? JSON.parse(m[1]!) : undefined;
    } catch {
      return undefined;
    }
  };
  const [node, cli, store, env] = ['NODE', 'CLI', 'STORE', 'ENV'].map(constant);
  if (typeof node !== 'string' || typeof cli !== 'string' || typeof store !== 'string') return null;
  const vars = env && typeof env === 'object' && Object.keys(env).length ? { env: env as Record<string, string> } : {};
  return { node, cli, store, ...vars };
}

/** What the first hook of ours in one config file runs: JSON settings, hook scripts, OpenCode's plugin. */
export function targetInConfig(file: string, text: string): HookTarget | null {
  if (/\.(json|hook)$/.test(file)) {
    for (const s of jsonStrings(parse(text, [], { allowTrailingComma: true }))) {
      const t = targetOfHookCommand(s);
      if (t) return t;
    }
    return null;
  }
  const dialect = file.endsWith('.ps1') ? 'powershell' : 'sh';
  for (const line of text.split(/\r?\n/)) {
    const t = targetOfHookCommand(line, dialect);
    if (t) return t;
  }
  return pluginTarget(text);
}

/** A config file's text: a regular file of a sane size only (a FIFO would block; a device or a huge file is no config). */
export function readConfig(file: string): string | null {
  try {
    const st = fs.statSync(file);
    if (!st.isFile() || st.size > MAX_CONFIG_BYTES) return null;
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** What the hooks of ours in `files` run (the first file that has one), or null. */
export function writtenTarget(files: readonly string[]): { target: HookTarget; file: string } | null {
  for (const file of files) {
    const text = readConfig(file);
    const target = text === null ? null : targetInConfig(file, text);
    if (target) return { target, file };
  }
  return null;
}
