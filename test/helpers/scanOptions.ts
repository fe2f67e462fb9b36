// Scan options for tests that scan a real tree: a fresh store folder, content stored, and no racy window — every
// entry is judged by its stat at once, so what the watcher names (or the scan alone looks at) decides.
import * as fs from 'node:fs';
import type { ScanOptions } from '../../src/core/scan/types';

/** The options, with the store folder `storeDir` created; `maxFiles`: above any tree the test builds. */
export function scanOptionsIn(storeDir: string, maxFiles: number): ScanOptions {
  fs.mkdirSync(storeDir);
  return { storeDir, storeContent: true, racyMs: 0, limits: { maxFiles, maxFileBytes: 1 << 20, excludes: [], skipAbs: [] } };
}
