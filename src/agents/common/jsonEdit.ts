// Editing an agent's JSON (or JSONC) config file without disturbing what the user wrote: every
// connector (Claude's settings, VS Code / Copilot's `.github/hooks`, Cursor's `hooks.json`, Gemini's
// settings, Codex's hooks.json) appends its entries with these edits and removes them with their
// inverse, so Disconnect gives back the original bytes. jsonc-parser's own `modify` re-formats
// neighbours, which would break that, hence hand-made edits. Plus the one atomic file writer.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AgentRewindError, type ConfigFileProblem } from '../../core/errors';
import { writeFileAtomic } from '../../core/storeFiles/fsx';
import { applyEdits, type Edit, type FormattingOptions, type Node, parseTree, type ParseError, printParseErrorCode } from 'jsonc-parser';

/** The code of a config file we will not edit (not JSON, not an object, a field of the wrong type): a hooks file in the grouped shape says `hooks-file`. */
export type ConfigFileCode = 'config-file' | 'hooks-file';

/** A config file we will not edit: `problem` says what to fix. */
export function configFileError(code: ConfigFileCode, problem: ConfigFileProblem): AgentRewindError<ConfigFileCode> {
  return new AgentRewindError(code, problem);
}

/** Parses a JSONC object; `what` names the file in the error ("The Cursor hooks file"). */
export function parseJsonObject(text: string, what: string, code: ConfigFileCode = 'config-file'): Node {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length || !root) {
    const e = errors[0];
    throw configFileError(code, {
      why: 'not-json',
      what,
      ...(e ? { parseError: { code: printParseErrorCode(e.error), offset: e.offset } } : {}),
    });
  }
  if (root.type !== 'object') throw configFileError(code, { why: 'not-object', what });
  return root;
}

/** Property `key` of an object node. */
export function child(node: Node | undefined, key: string): Node | undefined {
  if (!node || node.type !== 'object') return undefined;
  for (const p of node.children ?? []) if (p.children?.[0]?.value === key) return p.children[1];
  return undefined;
}

export function nodeToValue(node: Node): unknown {
  switch (node.type) {
    case 'object': {
      const o: Record<string, unknown> = {};
      for (const p of node.children ?? []) {
        const k = p.children?.[0]?.value;
        if (typeof k === 'string' && p.children?.[1]) o[k] = nodeToValue(p.children[1]);
      }
      return o;
    }
    case 'array':
      return (node.children ?? []).map(nodeToValue);
    default:
      return node.value;
  }
}

export function nodeAt(root: Node, pathSegs: (string | number)[]): Node | undefined {
  let n: Node | undefined = root;
  for (const s of pathSegs) {
    if (!n) return undefined;
    if (typeof s === 'number') n = n.type === 'array' ? n.children?.[s] : undefined;
    else n = child(n, s);
  }
  return n;
}

/** Indentation and line ends as the file already uses them (2 spaces and \n for a new file). */
export function formatting(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const m = /\n([ \t]+)\S/.exec(text);
  if (m && m[1]!.startsWith('\t')) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: m ? m[1]!.length : 2, eol };
}

/**
 * Removes array element `index` of `arr` so that an element we appended (`,` + element right after
 * the previous one) disappears without a trace: from the end of the previous element to the end of
 * this one; the first element up to the next one; the only element leaves `[]`.
 */
export function removeElement(arr: Node, index: number): Edit {
  const items = arr.children ?? [];
  const item = items[index]!;
  if (items.length === 1) return { offset: arr.offset + 1, length: arr.length - 2, content: '' };
  if (index > 0) {
    const prev = items[index - 1]!;
    return { offset: prev.offset + prev.length, length: item.offset + item.length - (prev.offset + prev.length), content: '' };
  }
  return { offset: item.offset, length: items[1]!.offset - item.offset, content: '' };
}

/** The same for a property of an object. */
export function removeProperty(obj: Node, key: string): Edit | null {
  const props = obj.children ?? [];
  const i = props.findIndex((p) => p.children?.[0]?.value === key);
  if (i < 0) return null;
  const p = props[i]!;
  if (props.length === 1) {
    // Our property alone in the object: leave the braces exactly as an empty object would be written.
    return { offset: obj.offset + 1, length: obj.length - 2, content: '' };
  }
  if (i > 0) {
    const prev = props[i - 1]!;
    return { offset: prev.offset + prev.length, length: p.offset + p.length - (prev.offset + prev.length), content: '' };
  }
  return { offset: p.offset, length: props[1]!.offset - p.offset, content: '' };
}

/** The whitespace at the start of the line `offset` is on, and whether the node is first on it. */
function lineIndent(text: string, offset: number): { indent: string; first: boolean } {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const lead = text.slice(start, offset);
  const indent = /^[ \t]*/.exec(lead)![0];
  return { indent, first: indent.length === lead.length };
}

/**
 * The edit that appends `value` (as property `key` for an object) to a container, written the way
 * the neighbours are: on its own line with their indentation, or inline after an inline neighbour.
 * Nothing already in the file is touched — jsonc-parser's `modify` would re-format the neighbour —
 * so removing the appended text (`removeElement`, `removeProperty`) gives back the original bytes.
 */
export function appendTo(text: string, container: Node, fmt: FormattingOptions, value: unknown, key?: string): Edit {
  const unit = fmt.insertSpaces ? ' '.repeat(fmt.tabSize ?? 2) : '\t';
  const eol = fmt.eol ?? '\n';
  const head = key === undefined ? '' : `${JSON.stringify(key)}: `;
  const pretty = (base: string) => head + JSON.stringify(value, null, unit).replace(/\n/g, eol + base);
  const items = container.children ?? [];
  if (items.length) {
    const prev = items[items.length - 1]!;
    const at = prev.offset + prev.length;
    const { indent, first } = lineIndent(text, prev.offset);
    return first
      ? { offset: at, length: 0, content: `,${eol}${indent}${pretty(indent)}` }
      : { offset: at, length: 0, content: `, ${head}${JSON.stringify(value)}` };
  }
  const { indent } = lineIndent(text, container.offset);
  const inner = text.slice(container.offset + 1, container.offset + container.length - 1);
  const body = `${eol}${indent}${unit}${pretty(indent + unit)}${eol}${indent}`;
  // Only whitespace between the brackets (an empty container): replace it; keep a comment that sits there.
  return /^\s*$/.test(inner)
    ? { offset: container.offset + 1, length: inner.length, content: body }
    : { offset: container.offset + 1, length: 0, content: body };
}

export { applyEdits, type Edit, type FormattingOptions, type Node };

/** True for a text that is an empty object once whitespace is ignored (a file Connect created and emptied). */
export function isEmptyObjectText(text: string): boolean {
  return /^\s*\{\s*\}\s*$/.test(text);
}

// ---------------------------------------------------------------------------------------- files

/** The file's text, or undefined when it does not exist. */
export function readTextFile(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/**
 * Writes `text` atomically: a temp file beside it (same mode as the old file; `mode` — 0600 unless
 * given — for a new one: the command names local paths), fsync, rename. With `checkExpected`: if the
 * file no longer holds `expected` (undefined = did not exist) — an agent rewrote it meanwhile —
 * nothing is written and false is returned, so the caller can recompute. The check and the rename
 * are not one atomic step; the window is microseconds.
 */
export function writeTextFileAtomic(
  file: string,
  text: string,
  opts: { expected?: string | undefined; checkExpected?: boolean; mode?: number } = {},
): boolean {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let mode = opts.mode ?? 0o600;
  try {
    mode = fs.statSync(file).mode & 0o777;
  } catch {
    /* new file */
  }
  return writeFileAtomic(file, text, {
    mode,
    exactMode: true, // the umask may have narrowed it at open
    sync: true,
    beforeRename: () => !opts.checkExpected || readTextFile(file) === opts.expected,
  });
}

export type FileEdit = { text: string } | { remove: true } | null;

/** Read, edit, write back unless the file changed meanwhile (then retry). True when it changed. */
export function editFile(file: string, edit: (text: string | undefined) => FileEdit, opts: { mode?: number } = {}): boolean {
  for (let attempt = 0; attempt < 5; attempt++) {
    const before = readTextFile(file);
    const r = edit(before);
    if (r === null || ('text' in r && r.text === before)) return false;
    if ('remove' in r) {
      if (before === undefined) return false;
      if (readTextFile(file) !== before) continue;
      fs.rmSync(file, { force: true });
      return true;
    }
    if (writeTextFileAtomic(file, r.text, { expected: before, checkExpected: true, ...opts })) return true;
  }
  throw configFileError('config-file', { why: 'kept-changing', file });
}

/** Removes `dir` and its parents up to (not including) `stop` while they are empty: folders Connect created. */
export function removeEmptyDirs(dir: string, stop: string): void {
  let d = dir;
  while (d.startsWith(stop + path.sep) && d !== stop) {
    try {
      fs.rmdirSync(d);
    } catch {
      return; // not empty (or gone): stop here
    }
    d = path.dirname(d);
  }
}
