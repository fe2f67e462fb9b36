// Sends an agent's fixture payloads (test/fixtures/agents/<agent>/…, built from its documented or captured
// examples) through the real hook path: one `node dist/cli.js hook <agent>` process per payload, JSON on
// stdin. Placeholders point at the test's folders, the payload's own session field is replaced by
// `session` (so runs sharing a store never mix), and a timestamp field, if any, is made fresh in the
// payload's own format. Used by the e2e and integration tiers (plain ESM: no harness imports, so the
// integration bundle stays small).
//
//   const send = agentFixtureHooks({ repoRoot, store, workspace, agent: 'cursor', session: 'c-1' });
//   send('cursor/prompt.json', (p) => (p.prompt = 'first'));
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Each agent's session field(s), the ones `session` replaces. */
const SESSION_FIELDS = ['session_id', 'sessionId', 'conversation_id', 'taskId'];

export function agentFixtureHooks({ repoRoot, store, workspace, home = path.join(workspace, '..', 'home'), agent, session, env = {} }) {
  const cli = path.join(repoRoot, 'dist', 'cli.js');
  const fixtures = path.join(repoRoot, 'test', 'fixtures', 'agents');
  let clock = Date.now() - 60_000;
  return (rel, patch = () => {}) => {
    const text = fs.readFileSync(path.join(fixtures, rel), 'utf8').replaceAll('/WORKSPACE', workspace).replaceAll('/HOME', home);
    const p = JSON.parse(text);
    if (session) for (const k of SESSION_FIELDS) if (typeof p[k] === 'string') p[k] = session;
    clock += 1000;
    if (typeof p.timestamp === 'number') p.timestamp = clock;
    else if (typeof p.timestamp === 'string') p.timestamp = /^\d+$/.test(p.timestamp) ? String(clock) : new Date(clock).toISOString();
    patch(p);
    const r = spawnSync(process.execPath, [cli, 'hook', agent], {
      input: JSON.stringify(p),
      cwd: workspace,
      env: { ...process.env, AGENT_REWIND_STORE: store, ELECTRON_RUN_AS_NODE: '1', COPILOT_CLI: '', ...env },
      encoding: 'utf8',
    });
    if (r.status !== 0 || r.stdout) {
      throw new Error(`hook ${agent} (${rel}) exited ${r.status} printing ${JSON.stringify(r.stdout)}: ${r.stderr}`);
    }
    return p;
  };
}
