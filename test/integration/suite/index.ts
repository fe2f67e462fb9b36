// Mocha entry point, loaded by the REAL VS Code extension host (the `extensionTestsPath` of the run).
// test/integration/run.mjs bundles this and every *.test.ts beside it into out/test/integration/.
// The exported run() must settle: the workbench then reports the exit code to the launcher. Mocha's
// spec output and per-test results are also written to $AGENT_REWIND_TEST_RESULTS for the launcher
// to print (the extension host's console does not reach it in a readable form).
//   env: AGENT_REWIND_TEST_GREP (only tests whose full title matches), AGENT_REWIND_TEST_TIMEOUT_MS (per test)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import Mocha from 'mocha';

interface TestResult {
  title: string;
  file?: string;
  state: 'passed' | 'failed' | 'pending';
  durationMs?: number;
  error?: string;
}

export function run(): Promise<void> {
  process.setSourceMapsEnabled?.(true);
  const lines: string[] = [];
  const Base = Mocha.reporters.Base as unknown as { consoleLog: (...a: unknown[]) => void };
  const originalLog = Base.consoleLog;
  // Captured only: the extension host's console reaches the launcher as unformatted "%s" noise.
  Base.consoleLog = (...a: unknown[]) => {
    lines.push(a.length ? format(...a) : '');
  };
  const mocha = new Mocha({
    ui: 'tdd',
    reporter: 'spec',
    color: false,
    timeout: Number(process.env.AGENT_REWIND_TEST_TIMEOUT_MS) || 120000,
    ...(process.env.AGENT_REWIND_TEST_GREP ? { grep: process.env.AGENT_REWIND_TEST_GREP } : {}),
  });
  for (const f of fs.readdirSync(__dirname).sort()) {
    if (f.endsWith('.test.js')) mocha.addFile(path.join(__dirname, f));
  }
  const results: TestResult[] = [];
  const resultsFile = process.env.AGENT_REWIND_TEST_RESULTS;
  return new Promise<void>((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        Base.consoleLog = originalLog;
        const summary = {
          failures,
          passes: results.filter((r) => r.state === 'passed').length,
          pending: results.filter((r) => r.state === 'pending').length,
          tests: results,
          output: lines.join('\n'),
        };
        if (resultsFile) fs.writeFileSync(resultsFile, JSON.stringify(summary, null, 2));
        if (failures > 0) reject(new Error(`${failures} test(s) failed.`));
        else resolve();
      });
      const file = (t: Mocha.Runnable) => (t.file ? path.basename(t.file) : undefined);
      runner.on('pass', (t) => results.push({ title: t.fullTitle(), file: file(t), state: 'passed', durationMs: t.duration }));
      runner.on('pending', (t) => results.push({ title: t.fullTitle(), file: file(t), state: 'pending' }));
      runner.on('fail', (t, err: Error) =>
        results.push({ title: t.fullTitle(), file: file(t), state: 'failed', durationMs: t.duration, error: err?.stack || String(err) }),
      );
    } catch (e) {
      Base.consoleLog = originalLog;
      if (resultsFile) {
        fs.writeFileSync(
          resultsFile,
          JSON.stringify({ failures: 1, passes: 0, pending: 0, tests: [], output: `mocha could not start: ${(e as Error)?.stack || e}` }),
        );
      }
      reject(e);
    }
  });
}
