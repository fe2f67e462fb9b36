// Path identity. Agents send absolute paths; anything else is bad input — we never resolve a path
// against a directory of our choosing. One function decides when two paths name the same file.
import * as path from 'node:path';

export type Platform = 'posix' | 'win32';

export function currentPlatform(): Platform {
  return process.platform === 'win32' ? 'win32' : 'posix';
}

/** A path string longer than this is garbage, not a path. */
const MAX_PATH_TEXT = 65536;

/**
 * Validates a path from an agent payload: a non-empty absolute path without NUL bytes, on this
 * platform's rules (a Windows path on Linux is bad input). Returns it normalized (`.`/`..` and
 * duplicate separators folded lexically — nothing on disk is consulted), or null.
 */
export function checkAbsolutePath(p: unknown, platform: Platform = currentPlatform()): string | null {
  // Not bounded by PATH_MAX: a longer path is a real path a tool named, recorded as not recordable (path-length).
  if (typeof p !== 'string' || p.length === 0 || p.length > MAX_PATH_TEXT || p.includes('\0')) return null;
  const impl = platform === 'win32' ? path.win32 : path.posix;
  if (!impl.isAbsolute(p)) return null;
  if (platform === 'win32' && !/^([a-zA-Z]:[\\/]|\\\\)/.test(p)) return null; // no drive-relative "\foo"
  let n = impl.normalize(p);
  if (n.length > 1 && (n.endsWith('/') || (platform === 'win32' && n.endsWith('\\') && !/^[a-zA-Z]:\\$/.test(n)))) n = n.slice(0, -1);
  return n;
}

/**
 * The identity key of a path: equal keys name the same file. Case-insensitive file systems
 * (macOS and Windows defaults) fold case; Windows also folds separators.
 */
export function pathKey(p: string, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return withoutLongPrefix(p.replace(/\//g, '\\')).toLowerCase();
  if (platform === 'darwin') return p.normalize('NFC').toLowerCase();
  return p;
}

/**
 * A Windows path without its long-path prefix: `\\?\C:\x` names the same file as `C:\x`, and
 * `\\?\UNC\server\share\x` the same as `\\server\share\x` (agents and tools send either).
 */
function withoutLongPrefix(p: string): string {
  if (/^\\\\\?\\UNC\\/i.test(p)) return '\\\\' + p.slice(8);
  if (/^\\\\\?\\[a-zA-Z]:\\/.test(p)) return p.slice(4);
  return p;
}

/** True when `p` is `root` or inside it (lexically, by identity keys). */
export function isInside(p: string, root: string, platform: NodeJS.Platform = process.platform): boolean {
  const sep = platform === 'win32' ? '\\' : '/';
  const kp = pathKey(p, platform);
  let kr = pathKey(root, platform);
  if (kp === kr) return true;
  if (!kr.endsWith(sep)) kr += sep;
  return kp.startsWith(kr);
}

/** An id (session, tool call) as a file name: only portable characters, bounded length. */
export function fileNameOf(id: string, fallback: string): string {
  return id.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 120) || fallback;
}

/** Paths of this many bytes or more cannot be opened (Linux PATH_MAX): what lies there is not recorded, and said so. */
export const PATH_MAX = 4096;
