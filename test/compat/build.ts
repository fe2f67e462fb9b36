// Every compat run records through dist/: rebuild it first when src/ is newer.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const repoRoot = path.resolve(__dirname, '../..');

export function ensureBuilt(): void {
  const newest = (dir: string): number => {
    let m = 0;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      m = Math.max(m, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
    }
    return m;
  };
  const dist = path.join(repoRoot, 'dist', 'hook.js');
  const stale = !fs.existsSync(dist) || newest(path.join(repoRoot, 'src')) > fs.statSync(dist).mtimeMs;
  if (stale) {
    console.log('building dist/ (src is newer) …');
    const r = spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'build.mjs')], { cwd: repoRoot, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('npm run build failed; fix the build first.');
  }
}
