// The off-host worker's source as a worker thread can load it in the unit tier: a small CommonJS file
// that registers tsx and requires src/extension/offHost/worker.ts (the extension loads its bundle,
// dist/offHostWorker.js).
import * as fs from 'node:fs';
import * as path from 'node:path';

export function workerScript(dir: string): string {
  const file = path.join(dir, 'offHostWorker.cjs');
  fs.writeFileSync(
    file,
    `require(${JSON.stringify(require.resolve('tsx/cjs/api'))}).register();\nrequire(${JSON.stringify(path.resolve(__dirname, '../../src/extension/offHost/worker.ts'))});\n`,
  );
  return file;
}
