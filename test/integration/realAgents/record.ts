// Records one short session of a REAL agent CLI for the integration tier's realAgents suite, with
// the compat tier's installer, scripted model server and worlds (test/compat/codex, test/compat/gemini):
// our hooks connected the way "Connect Agents…" writes them, into the store the VS Code under test
// watches, in a project folder of its workspace. Two prompts (the second on a resume), so the
// conversation has a prompt to fork before.
//
//   node --import tsx test/integration/realAgents/record.ts --ensure
//       installs the pinned clients when missing (the integration runner, before it launches VS Code);
//   node --import tsx test/integration/realAgents/record.ts <codex|gemini> <project dir> <store>
//       records the session and prints one JSON line (Recorded) on stdout; exit 1 with a sentence on stderr.
//
// Run as its own process (not bundled into the extension host): the compat code finds its helper
// scripts beside itself, and the clients' own processes stay out of the extension host.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { trustCodexHooks } from '../../../src/agents/codex/connect';
import { ensureCodex } from '../../compat/codex/codexCli';
import { startScriptedModel } from '../../compat/kit/model.mjs';
import { CodexWorld, type RunResult } from '../../compat/codex/session';
import { ensureGemini } from '../../compat/gemini/geminiCli';
import { GeminiWorld, type RunOutcome } from '../../compat/gemini/session';
import { KEEP_RESUMED_SESSIONS } from '../../compat/gemini/settings';
import { DIST, writeFiles } from '../../compat/harness';
import { registry } from '../../../src/agents/registry';

const codexConnector = registry.connector('codex')!;
const geminiConnector = registry.connector('gemini')!;

/** What the suite needs to know about a recorded session. */
export interface Recorded {
  agent: 'codex' | 'gemini';
  version: string;
  session: string;
  /** The rollout (Codex) or chat file (Gemini) holding the conversation. */
  transcript: string;
  /** The folder where the client looks for sessions to resume (CODEX_HOME/sessions, the chats folder). */
  sessionsDir: string;
  /** The folder holding the client's executable (`codex`, `gemini`), for the terminal's PATH. */
  binDir: string;
  /** The temp world (homes, logs): the suite removes it. */
  root: string;
  prompts: [string, string];
  /** Project files (relative) → content before prompt 1 and after prompt 2 (null = absent). */
  before: Record<string, string | null>;
  after: Record<string, string | null>;
}

export const CODEX_START = { 'README.md': '# Demo\n', 'src/app.js': "console.log('hello');\n", 'config.ini': 'port=80\n' };
export const GEMINI_START = { 'version.txt': 'version=1.0.0\n', 'old-notes.txt': 'Notes nobody reads.\n', 'README.md': '# App\n' };
const CODEX_PROMPTS: [string, string] = ['Add a greeting helper, use it, and bump the port', 'Mention the greeting in the README'];
const GEMINI_PROMPTS: [string, string] = [
  'Add a changelog, bump the version and drop the old notes',
  'Say in the changelog that it shipped',
];

const patch = (...ops: string[]) => ['*** Begin Patch', ...ops, '*** End Patch'].join('\n');

function snapshot(project: string, rels: string[]): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const rel of rels) {
    const p = path.join(project, rel);
    out[rel] = fs.existsSync(p) ? fs.readFileSync(p, 'utf8') : null;
  }
  return out;
}

function fail(what: string, detail: string): never {
  throw new Error(`${what}: ${detail.slice(-800)}`);
}

async function recordCodex(project: string, store: string): Promise<Recorded> {
  const { bin, version } = ensureCodex({ install: false });
  const model = await startScriptedModel({ wire: 'openai-responses', bodies: true });
  const w = new CodexWorld('it', bin, model, 'persisted', project);
  try {
    writeFiles(project, CODEX_START);
    await w.setup();
    const target = { node: process.execPath, cli: path.join(DIST, 'cli.js'), store };
    codexConnector.connect(project, target);
    const trust = await trustCodexHooks(bin, project, w.env());
    if (trust.untrusted.length || !trust.trusted.length) fail('Codex did not trust our hooks', JSON.stringify(trust));
    const files = ['README.md', 'src/app.js', 'src/greet.js', 'config.ini'];
    const before = snapshot(project, files);
    const ok = (r: RunResult) => {
      if (r.run.status !== 0 || !r.sessionId || !r.rolloutPath || model.remaining())
        fail(`codex ${r.label} did not run its script`, `exit ${r.run.status}, ${model.remaining()} step(s) left: ${r.run.stderr}`);
      return r;
    };
    const r1 = ok(
      await w.run(
        'prompt 1',
        CODEX_PROMPTS[0],
        [
          {
            patch: patch(
              '*** Add File: src/greet.js',
              '+exports.greet = (name) => `Hello, ${name}!`;',
              '*** Update File: src/app.js',
              '@@',
              "-console.log('hello');",
              "+const { greet } = require('./greet');",
              "+console.log(greet('world'));",
            ),
          },
          { exec: "sed -i 's/port=80/port=8080/' config.ini" },
          { text: 'Helper added and used, port bumped.' },
        ],
        { timeoutMs: 90000 },
      ),
    );
    ok(
      await w.run(
        'prompt 2 (exec resume)',
        CODEX_PROMPTS[1],
        [{ patch: patch('*** Update File: README.md', '@@', ' # Demo', '+', '+Uses `greet()`.') }, { text: 'README updated.' }],
        { resume: r1.sessionId, timeoutMs: 90000 },
      ),
    );
    return {
      agent: 'codex',
      version,
      session: r1.sessionId,
      transcript: r1.rolloutPath!,
      sessionsDir: path.join(w.codexHome, 'sessions'),
      binDir: path.dirname(bin),
      root: w.root,
      prompts: CODEX_PROMPTS,
      before,
      after: snapshot(project, files),
    };
  } finally {
    await model.close();
  }
}

async function recordGemini(project: string, store: string): Promise<Recorded> {
  const { bin, version } = ensureGemini({ install: false });
  const model = await startScriptedModel({ wire: 'gemini' });
  const w = new GeminiWorld('it', bin, model, KEEP_RESUMED_SESSIONS, project);
  try {
    writeFiles(project, GEMINI_START);
    const target = { node: process.execPath, cli: path.join(DIST, 'cli.js'), store };
    geminiConnector.connect(project, target);
    // Test only: the raw payloads name the chat file (`transcript_path`) the run wrote.
    w.installRecorder({ where: 'user', events: ['SessionStart', 'BeforeAgent', 'AfterAgent'] });
    const files = ['CHANGELOG.md', 'version.txt', 'old-notes.txt', 'README.md'];
    const before = snapshot(project, files);
    const ok = (r: RunOutcome) => {
      if (r.run.status !== 0 || !r.session || !r.chatFile || model.remaining() || r.network.length)
        fail(
          `gemini ${r.label} did not run its script`,
          `exit ${r.run.status}, ${model.remaining()} step(s) left, network ${r.network.join(' ')}: ${r.run.stderr}`,
        );
      return r;
    };
    const r1 = ok(
      await w.run('prompt 1', GEMINI_PROMPTS[0], [
        {
          call: { name: 'write_file', args: { file_path: 'CHANGELOG.md', content: '# Changelog\n\n## 1.1.0\n- Added this changelog.\n' } },
        },
        { call: { name: 'replace', args: { file_path: 'version.txt', old_string: '1.0.0', new_string: '1.1.0', instruction: 'Bump.' } } },
        { call: { name: 'run_shell_command', args: { command: 'rm old-notes.txt', description: 'Drop the old notes.' } } },
        { text: 'Changelog added, version bumped, notes dropped.' },
      ]),
    );
    // A resume a minute after the chat's name, as for real users (test/fixtures/agents/gemini/real-0.61.0/README.md).
    w.backdate(r1.chatFile!);
    const r2 = ok(
      await w.run(
        'prompt 2 (--resume)',
        GEMINI_PROMPTS[1],
        [
          {
            call: {
              name: 'replace',
              args: {
                file_path: 'CHANGELOG.md',
                old_string: '- Added this changelog.',
                new_string: '- Added this changelog.\n- Shipped.',
                instruction: 'Note.',
              },
            },
          },
          { text: 'Noted.' },
        ],
        // 0.61 resends earlier tool results twice on a plain resume (gemini-cli#29365): answered anyway.
        { resume: r1.session, strict: false },
      ),
    );
    return {
      agent: 'gemini',
      version,
      session: r1.session!,
      transcript: r2.chatFile!,
      sessionsDir: path.dirname(r2.chatFile!),
      binDir: path.join(bin, '..', '..', '..', '..', '.bin'),
      root: w.root,
      prompts: GEMINI_PROMPTS,
      before,
      after: snapshot(project, files),
    };
  } finally {
    await model.close();
  }
}

async function main(): Promise<void> {
  const [what, project, store] = process.argv.slice(2);
  if (what === '--ensure') {
    const c = ensureCodex();
    const g = ensureGemini();
    console.log(`real clients for the integration tier: codex ${c.version} (${c.how}), gemini ${g.version} (${g.how})`);
    return;
  }
  if ((what !== 'codex' && what !== 'gemini') || !project || !store) {
    console.error('usage: record.ts --ensure | record.ts <codex|gemini> <project dir> <store>');
    process.exit(2);
  }
  fs.mkdirSync(project, { recursive: true });
  const rec = what === 'codex' ? await recordCodex(project, store) : await recordGemini(project, store);
  console.log(JSON.stringify(rec));
}

main().catch((e) => {
  console.error((e as Error).message);
  process.exit(1);
});
