// The paths an `apply_patch` call writes. Codex (`tool_input.command`), VS Code's agent
// (`tool_input.input`) and Cline (`input`) send the same patch envelope:
//   *** Begin Patch
//   *** Add File: <path>        (+ lines)
//   *** Update File: <path>     (optionally *** Move to: <path>, then @@ hunks)
//   *** Delete File: <path>
//   *** End Patch
// We only need which files it names, not the hunks: the `before` snapshot is taken from disk and the
// `after` from disk again when the call ends. Paths may be relative (to the agent's cwd) or absolute.
import * as path from 'node:path';
import { checkAbsolutePath, type Platform, currentPlatform } from '../../core/paths';

export type PatchOp = { op: 'add'; path: string } | { op: 'delete'; path: string } | { op: 'update'; path: string; moveTo?: string };

const HEADER = /^\*\*\* (Add File|Delete File|Update File|Move to): (.+)$/;

/** The file operations of a patch, in order, with paths as written. Null when the text is not a patch. */
export function parsePatchOps(text: string): PatchOp[] | null {
  if (typeof text !== 'string') return null;
  const lines = text.split(/\r?\n/);
  const begin = lines.findIndex((l) => l.trim() === '*** Begin Patch');
  if (begin < 0) return null;
  const ops: PatchOp[] = [];
  for (const line of lines.slice(begin + 1)) {
    if (line.trim() === '*** End Patch') break;
    const m = HEADER.exec(line.trimEnd());
    if (!m) continue; // hunk lines, `@@`, `*** End of File`
    const p = m[2]!.trim();
    if (m[1] === 'Add File') ops.push({ op: 'add', path: p });
    else if (m[1] === 'Delete File') ops.push({ op: 'delete', path: p });
    else if (m[1] === 'Update File') ops.push({ op: 'update', path: p });
    else {
      const last = ops[ops.length - 1];
      if (last?.op === 'update') last.moveTo = p;
    }
  }
  return ops;
}

/**
 * Every absolute path a patch writes (added, updated, deleted, and the target of a move), relative
 * ones resolved against `cwd`; de-duplicated, in order. `bad` lists what could not be made absolute
 * (a relative path with no cwd, a NUL byte…): the adapter logs those and records the rest.
 */
export function patchPaths(
  text: string,
  cwd: string | undefined,
  platform: Platform = currentPlatform(),
): { paths: string[]; bad: string[] } | null {
  const ops = parsePatchOps(text);
  if (!ops) return null;
  const impl = platform === 'win32' ? path.win32 : path.posix;
  const out: string[] = [];
  const bad: string[] = [];
  const add = (p: string) => {
    const abs = impl.isAbsolute(p) ? checkAbsolutePath(p, platform) : cwd ? checkAbsolutePath(impl.join(cwd, p), platform) : null;
    if (!abs) {
      if (!bad.includes(p)) bad.push(p);
    } else if (!out.includes(abs)) out.push(abs);
  };
  for (const o of ops) {
    add(o.path);
    if (o.op === 'update' && o.moveTo) add(o.moveTo);
  }
  return { paths: out, bad };
}
