// Real temp folders for tests (no fake file system), removed when the test process exits.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const made: string[] = [];
process.on('exit', () => {
  if (process.env.KEEP_TMP) return;
  for (const d of made) {
    try {
      fs.rmSync(d, { recursive: true, force: true });
    } catch {
      /* best effort */
    }
  }
});

export function tempDir(prefix = 'ar-test-'): string {
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  made.push(d);
  return d;
}

/** A workspace folder and a store folder side by side. */
export function sandbox(): { root: string; ws: string; store: string } {
  const root = tempDir();
  const ws = path.join(root, 'ws');
  fs.mkdirSync(ws);
  return { root, ws, store: path.join(root, 'store') };
}

/** Every file under `dir` (relative path -> bytes), symlinks as `-> target`; skips `.git`. */
export function snapshotTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name === '.git') continue;
      const p = path.join(d, e.name);
      const rel = path.relative(dir, p);
      if (e.isSymbolicLink()) out[rel] = `-> ${fs.readlinkSync(p)}`;
      else if (e.isDirectory()) {
        out[rel + '/'] = '<dir>';
        walk(p);
      } else out[rel] = fs.readFileSync(p).toString('base64');
    }
  };
  walk(dir);
  return out;
}
