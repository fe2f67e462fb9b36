// The agents wing's floor plan, read from the code: each `src/agents/<id>/` is one agent and exports exactly
// one adapter (its index.ts), which the registry lists; an agent folder imports only its own files, the
// contract (adapter.ts), `common/`, and the layers below (core, recording, shared) — never another agent's
// folder; `common/` names no agent folder; and each agent's name is spelled once in src.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { ADAPTERS } from '../../src/agents/registry';

const SRC = path.resolve(__dirname, '../../src');
const AGENTS = path.join(SRC, 'agents');
const BELOW = ['core', 'recording', 'shared'].map((d) => path.join(SRC, d) + path.sep);

const agentFolders = fs
  .readdirSync(AGENTS, { withFileTypes: true })
  .filter((e) => e.isDirectory() && e.name !== 'common')
  .map((e) => e.name)
  .sort();

const tsFiles = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? tsFiles(p) : e.name.endsWith('.ts') ? [p] : [];
  });

/** Every module a file names: `import … from`, `export … from`, `import(…)`, `require(…)`. */
function specifiers(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?from\s*['"]([^'"]+)['"]/g)) out.push(m[1]!);
  for (const m of text.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)) out.push(m[1]!);
  for (const m of text.matchAll(/\b(?:require|import)\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1]!);
  return out;
}

/** Where a relative specifier of `file` lands (a folder's index.ts or a .ts file), else null for a package or builtin. */
const target = (file: string, spec: string): string | null => (spec.startsWith('.') ? path.resolve(path.dirname(file), spec) : null);

test('every agent folder exports exactly one adapter, of its own id, and the registry lists every folder once', () => {
  assert.deepEqual(ADAPTERS.map((a) => a.id).sort(), agentFolders);
  for (const id of agentFolders) {
    const index = path.join(AGENTS, id, 'index.ts');
    assert.ok(fs.existsSync(index), `src/agents/${id}/ has no index.ts`);
    const exported = Object.entries(require(index) as Record<string, unknown>);
    assert.equal(exported.length, 1, `src/agents/${id}/index.ts exports ${exported.map(([k]) => k).join(', ')}`);
    assert.equal((exported[0]![1] as { id: string }).id, id);
  }
});

test("an agent folder imports only its own files, the contract, common/ and the layers below — no other agent's folder", () => {
  const bad: string[] = [];
  for (const id of agentFolders) {
    const own = path.join(AGENTS, id) + path.sep;
    for (const file of tsFiles(path.join(AGENTS, id)))
      for (const spec of specifiers(file)) {
        const to = target(file, spec);
        if (to === null) continue;
        const ok =
          (to + path.sep).startsWith(own) ||
          to === path.join(AGENTS, 'adapter') ||
          to.startsWith(path.join(AGENTS, 'common') + path.sep) ||
          BELOW.some((b) => to.startsWith(b));
        if (!ok) bad.push(`${path.relative(SRC, file)} imports ${spec}`);
      }
  }
  assert.deepEqual(bad, []);
});

test('common/ names no agent: it imports only itself and the layers below', () => {
  const common = path.join(AGENTS, 'common') + path.sep;
  const bad = tsFiles(common).flatMap((file) =>
    specifiers(file)
      .filter((spec) => {
        const to = target(file, spec);
        return to !== null && !to.startsWith(common) && !BELOW.some((b) => to.startsWith(b));
      })
      .map((spec) => `${path.relative(SRC, file)} imports ${spec}`),
  );
  assert.deepEqual(bad, []);
  const named = tsFiles(common).filter((f) => agentFolders.some((id) => new RegExp(`['"/]${id}['"/]`).test(fs.readFileSync(f, 'utf8'))));
  assert.deepEqual(
    named.map((f) => path.relative(SRC, f)),
    [],
    'a common/ file names an agent id in a string',
  );
});

test("each agent's name is spelled once in src, in its adapter", () => {
  const sources = tsFiles(SRC).map((f) => ({ f, lines: fs.readFileSync(f, 'utf8').split('\n') }));
  for (const a of ADAPTERS) {
    // In code, not comments; a folder named like the agent (Cline's ~/Documents/Cline) is a path, not its name.
    const spelled = sources.flatMap(({ f, lines }) =>
      lines
        .filter((l) => !/^\s*(\/\/|\/?\*)/.test(l) && !l.includes('path.join('))
        .filter((l) => l.includes(`'${a.displayName}'`) || l.includes(`"${a.displayName}"`) || l.includes(`\`${a.displayName}\``))
        .map(() => f),
    );
    assert.deepEqual(
      spelled.map((f) => path.relative(SRC, f)),
      [path.join('agents', a.id, 'index.ts')],
      a.displayName,
    );
  }
});
