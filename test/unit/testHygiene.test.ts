// Keeps tests honest, in every tier: no fixed sleep (a test that waits a set time is flaky on a
// loaded machine and slow everywhere else: wait on the condition, test/helpers/wait.ts) and no
// assertion inside an `if` (a test that asserts only when something holds passes when it never
// does: assert the condition itself). Reads every test source with the TypeScript parser.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

const TEST_ROOT = path.resolve(__dirname, '..');
/** The one place that may block between polls of a condition. */
const POLLER = path.join(TEST_ROOT, 'helpers', 'wait.ts');
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs)$/;
const SKIP_DIRS = new Set(['node_modules', 'fixtures']);

function testSources(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name) && !e.name.startsWith('.')) testSources(p, out);
    } else if (SOURCE.test(e.name) && !e.name.endsWith('.d.ts') && !e.name.endsWith('.d.mts')) out.push(p);
  }
  return out;
}

/** A sleep by name: `sleep(40)`, `delay(100)`, `page.waitForTimeout(500)`, `setTimeout(500)` of timers/promises. */
const SLEEP_NAMES = /^(sleep|delay|pause|waitForTimeout|setTimeoutPromise)$/i;

function calleeName(e: ts.Expression): string | undefined {
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) return e.name.text;
  return undefined;
}

function rootName(e: ts.Expression): string | undefined {
  while (ts.isPropertyAccessExpression(e) || ts.isCallExpression(e)) e = ts.isCallExpression(e) ? e.expression : e.expression;
  return ts.isIdentifier(e) ? e.text : undefined;
}

const isNumber = (e: ts.Expression | undefined): boolean =>
  !!e && (ts.isNumericLiteral(e) || (ts.isBinaryExpression(e) && isNumber(e.left) && isNumber(e.right)));

/** An assertion: `assert(…)`, `assert.x(…)`, or `expect(…).x(…)` (counted once, as its outer call). */
function isAssertCall(n: ts.Node): boolean {
  if (!ts.isCallExpression(n) || ts.isPropertyAccessExpression(n.parent)) return false;
  let callee: ts.Expression = n.expression;
  while (ts.isPropertyAccessExpression(callee)) callee = callee.expression;
  if (ts.isIdentifier(callee)) return callee.text === 'assert';
  return ts.isCallExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === 'expect';
}

/** Whether `n` runs only under a condition inside its own function: an `if` branch, `&&`, `||`, `?:`. */
function conditional(n: ts.Node): ts.Node | undefined {
  for (let child = n, p = n.parent; p; child = p, p = p.parent) {
    if (ts.isFunctionLike(p)) return undefined;
    if (ts.isIfStatement(p) && child !== p.expression) return p;
    if (ts.isConditionalExpression(p) && child !== p.condition) return p;
    if (
      ts.isBinaryExpression(p) &&
      child === p.right &&
      [ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken].includes(p.operatorToken.kind)
    )
      return p;
  }
  return undefined;
}

/** Whether `n` is in a loop of its own function: a poll interval between two looks at a condition. */
function inLoop(n: ts.Node): boolean {
  const executor = (p: ts.Node) => ts.isFunctionLike(p) && ts.isNewExpression(p.parent) && p.parent.expression.getText() === 'Promise';
  for (let p = n.parent; p && (!ts.isFunctionLike(p) || executor(p)); p = p.parent)
    if (ts.isForStatement(p) || ts.isWhileStatement(p) || ts.isDoStatement(p) || ts.isForOfStatement(p)) return true;
  return false;
}

/** A function that sleeps a time it is given: `(ms) => new Promise((r) => setTimeout(r, ms))`, `Atomics.wait(…, ms)`. */
function sleepHelper(fn: ts.Node): boolean {
  let found = false;
  const visit = (n: ts.Node) => {
    if (ts.isCallExpression(n)) {
      const name = calleeName(n.expression);
      const resolveOnly = name === 'setTimeout' && n.arguments.length === 2 && ts.isIdentifier(n.arguments[0]!);
      const atomics = name === 'wait' && rootName(n.expression) === 'Atomics';
      if (resolveOnly || atomics) found = true;
    }
    ts.forEachChild(n, visit);
  };
  visit(fn);
  return found;
}

export interface Finding {
  file: string;
  line: number;
  what: string;
}

export function findings(file: string, text = fs.readFileSync(file, 'utf8')): Finding[] {
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : undefined);
  const out: Finding[] = [];
  const at = (n: ts.Node, what: string) =>
    out.push({ file: path.relative(TEST_ROOT, file), line: src.getLineAndCharacterOfPosition(n.getStart(src)).line + 1, what });
  const visit = (n: ts.Node) => {
    if (ts.isCallExpression(n)) {
      const name = calleeName(n.expression) ?? '';
      if (SLEEP_NAMES.test(name) && isNumber(n.arguments[0])) at(n, `fixed sleep: ${n.getText(src).slice(0, 60)}`);
      if (name === 'setTimeout' && n.arguments.length === 2 && ts.isIdentifier(n.arguments[0]!) && isNumber(n.arguments[1]) && !inLoop(n))
        at(n, `fixed sleep: ${n.getText(src).slice(0, 60)}`);
      if (isAssertCall(n)) {
        const under = conditional(n);
        if (under) at(n, `assertion under a condition (line ${src.getLineAndCharacterOfPosition(under.getStart(src)).line + 1})`);
      }
    }
    const named =
      (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer && ts.isFunctionLike(n.initializer)
        ? n.name.text
        : undefined) ?? (ts.isFunctionDeclaration(n) ? n.name?.text : undefined);
    if (named && SLEEP_NAMES.test(named) && file !== POLLER && sleepHelper(n)) at(n, `sleep helper: ${named}`);
    ts.forEachChild(n, visit);
  };
  visit(src);
  return out;
}

describe('test hygiene', () => {
  it('finds what it is meant to find (so an empty result below means something)', () => {
    const bad = [
      'const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));',
      'await sleep(40);',
      'await new Promise((r) => setTimeout(r, 1100));',
      'await page.waitForTimeout(500);',
      "for (const l of lines) if ('x' in l) assert.equal(l.x, 1);",
      'ok && assert.ok(true);',
      'if (a) { expect(b).toBe(1); } else assert(c);',
    ].join('\n');
    const found = findings(path.join(TEST_ROOT, 'unit', 'example.test.ts'), bad).map((f) => `${f.line}:${f.what.split(':')[0]}`);
    assert.deepEqual(found, [
      '1:sleep helper',
      '2:fixed sleep',
      '3:fixed sleep',
      '4:fixed sleep',
      '5:assertion under a condition (line 5)',
      '6:assertion under a condition (line 6)',
      '7:assertion under a condition (line 7)',
      '7:assertion under a condition (line 7)',
    ]);
    const fine = [
      'assert.ok(cond, "plain");',
      'if (!r.ok) throw new Error("setup failed");',
      'await waitUntil(() => stopped(pid), "stopped");',
      'const f = () => { assert.equal(1, 1); }; if (x) f2();',
    ].join('\n');
    assert.deepEqual(findings(path.join(TEST_ROOT, 'unit', 'example.test.ts'), fine), []);
  });

  it('no test in any tier sleeps a fixed time or asserts under a condition', () => {
    const files = testSources(TEST_ROOT);
    assert.ok(files.length > 50, `found the test sources (${files.length})`);
    const all = files.flatMap((f) => findings(f));
    assert.deepEqual(
      all.map((f) => `${f.file}:${f.line} ${f.what}`),
      [],
    );
  });
});
