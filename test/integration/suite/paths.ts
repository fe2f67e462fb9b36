// Paths for integration tests. The bundles run from <repo>/out/test/integration/run-<pid>/, so the
// repository root is found by walking up to the package.json of agent-rewind (the launcher also passes it).
import * as fs from 'node:fs';
import * as path from 'node:path';

function findRepoRoot(): string {
  if (process.env.AGENT_REWIND_REPO_ROOT) return process.env.AGENT_REWIND_REPO_ROOT;
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    try {
      if (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).name === 'agent-rewind') return dir;
    } catch {
      /* not here */
    }
    if (path.dirname(dir) === dir) throw new Error(`no agent-rewind package.json above ${__dirname}`);
  }
}

export const repoRoot = findRepoRoot();
export const EXTENSION_ID = 'agent-rewind.agent-rewind';
