// Writes what a Gemini world captured into test/fixtures/agents/gemini/real-<version>/ with every
// machine-specific path replaced by a placeholder (/WORKSPACE, /HOME, /REMOTE, /ROOT, /REPO, /NODE)
// and the chat files' `projectHash` recomputed for /WORKSPACE, so the fixtures are the same on
// every machine apart from ids and times.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { projectHash, repoRoot } from './geminiCli';
import type { GeminiWorld } from './session';

export function placeholders(w: GeminiWorld): [string, string][] {
  const pairs: [string, string][] = [
    [w.ws, '/WORKSPACE'],
    [w.home, '/HOME'],
    [w.remote, '/REMOTE'],
    [w.root, '/ROOT'],
    [repoRoot, '/REPO'],
    [process.execPath, '/NODE'],
    [projectHash(w.ws), projectHash('/WORKSPACE')],
  ];
  // Longest first, so a path inside another is replaced as the longer one.
  return pairs.sort((a, b) => b[0].length - a[0].length);
}

export function sanitize(text: string, pairs: [string, string][]): string {
  let out = text;
  for (const [from, to] of pairs) out = out.split(from).join(to);
  return out;
}

export function writeFixture(dir: string, name: string, lines: unknown[] | string, pairs: [string, string][]): string {
  fs.mkdirSync(dir, { recursive: true });
  const text = typeof lines === 'string' ? lines : lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
  const file = path.join(dir, name);
  fs.writeFileSync(file, sanitize(text, pairs));
  return file;
}

/** A machine path left in a fixture (the check after writing). */
export function leftovers(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...new Set(text.match(/(?<![\w.])\/(?:tmp|work|root|home\/\w+)\/[^\s"'\\]*/g) ?? [])];
}
