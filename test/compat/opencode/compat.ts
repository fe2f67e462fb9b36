// The OpenCode compat tier: our OpenCode plugin (written by Connect), store and CLI against the REAL
// OpenCode (`opencode-ai`, pinned, installed into the ignored tool folder by the kit's driver),
// offline against the kit's scripted model server in its OpenAI chat-completions wire format (a
// custom provider on `@ai-sdk/openai-compatible`, which the binary bundles). The shared session is
// kit/filesScenario.ts; this file says how OpenCode is installed, configured and run, and checks
// where it keeps the conversation and that our conversation fork (through export/import) resumes with only
// the kept turns (kit/conversationFork.ts). Prints `opencode <version>: <n> checks, <n> passed, <n> failed`.
//
// What keeps it offline (found with the real 1.18 binary, see the README's compatibility notes):
//   - OPENCODE_DISABLE_MODELS_FETCH / OPENCODE_DISABLE_AUTOUPDATE: no models.dev catalogue, no update check;
//   - npm_config_offline=true: at every start OpenCode installs `@opencode-ai/plugin` into each config
//     folder (~/.config/opencode and the project's .opencode/) with an npm built into the binary, and
//     WAITS for it before loading local plugins; against an unreachable registry npm retries for ~70 s.
//     Offline, it fails at once ("background dependency install failed") and OpenCode goes on.
//
//   node --import tsx test/compat/opencode/compat.ts      (test/compat/run.mjs runs it)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { exportOpencodeSession } from '../../../src/agents/opencode/conversation';
import { baseEnv, runCli, type ToolSpec, versionFromOutput } from '../kit/cli';
import { checkForkAndResume } from '../kit/conversationFork';
import { type ClientDriver, type ClientWorld, runClient } from '../kit/filesScenario';
import type { Report } from '../report';

export const OPENCODE_PIN = '1.18.33';
const MODEL = 'scripted/scripted-model';

export const OPENCODE_TOOL: ToolSpec = {
  id: 'opencode',
  pkg: 'opencode-ai',
  pin: OPENCODE_PIN,
  versionVar: 'OPENCODE_VERSION',
  binVar: 'AGENT_REWIND_OPENCODE_BIN',
  // A node launcher; the binary itself comes in a per-platform optional dependency (opencode-linux-x64).
  candidates: (dir) => [path.join(dir, 'node_modules', '.bin', 'opencode')],
  versionOf: (bin) => versionFromOutput(bin, ['--version']),
};

function env(w: ClientWorld): NodeJS.ProcessEnv {
  return {
    ...baseEnv(w.home),
    OPENCODE_CONFIG: path.join(w.root, 'opencode.json'),
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_SHARE: '1',
    npm_config_offline: 'true',
  };
}

/** Every `ses_…` id in `--format json` output; the session is the first. */
function sessionOf(stdout: string): string | undefined {
  return /"sessionID"\s*:\s*"(ses_[A-Za-z0-9]+)"/.exec(stdout)?.[1];
}

async function prompt(bin: string, w: ClientWorld, text: string, resume?: string) {
  const args = ['run', '--format', 'json', '--model', MODEL, ...(resume ? ['--session', resume] : []), text];
  const run = await runCli(bin, args, { cwd: w.ws, env: env(w), timeoutMs: 240000, name: 'opencode' });
  return { run, session: sessionOf(run.stdout) };
}

function driver(bin: string, version: string): ClientDriver {
  return {
    agent: 'opencode',
    version,
    tools: {
      write: (file, content) => [{ call: { name: 'write', args: { filePath: file, content } } }],
      edit: (file, oldText, newText) => [{ call: { name: 'edit', args: { filePath: file, oldString: oldText, newString: newText } } }],
      shell: (command) => [{ call: { name: 'bash', args: { command, description: 'Scripted shell step.' } } }],
    },
    prepare(w) {
      // The model: a custom provider on the OpenAI-compatible SDK, pointed at the scripted server.
      const config = {
        $schema: 'https://opencode.ai/config.json',
        provider: {
          scripted: {
            npm: '@ai-sdk/openai-compatible',
            name: 'Scripted',
            options: { baseURL: `${w.model.url}/v1`, apiKey: 'dummy-key-for-the-local-model' },
            models: { 'scripted-model': { name: 'Scripted model', tool_call: true } },
          },
        },
        model: MODEL,
        small_model: MODEL,
        autoupdate: false,
        share: 'disabled',
      };
      fs.writeFileSync(path.join(w.root, 'opencode.json'), JSON.stringify(config, null, 2));
    },
    prompt: (w, text, resume) => prompt(bin, w, text, resume),
    // `opencode run <message..>` joins its words and wraps each one holding a space in double quotes: the
    // prompt `fix it` given as one argument reaches the plugin and the model as `"fix it"`.
    promptAsSent: (text) => (text.includes(' ') ? `"${text}"` : text),
    ownFiles: ['.opencode/plugins/agent-rewind.js'],
    after: (w, report, s) => conversation(bin, w, report, s),
  };
}

/**
 * OpenCode keeps sessions in SQLite (`~/.local/share/opencode/opencode.db`), not in a file a user
 * reads; `opencode export <id>` prints one as JSON and `opencode import <file>` loads one back.
 */
async function conversation(bin: string, w: ClientWorld, report: Report, s: { session?: string; prompts: string[] }): Promise<void> {
  const db = path.join(w.home, '.local', 'share', 'opencode', 'opencode.db');
  report.check('the conversation is in SQLite: ~/.local/share/opencode/opencode.db', () => (fs.existsSync(db) ? [] : [`no ${db}`]));
  if (!s.session) return;
  const exported = await runCli(bin, ['export', s.session], { cwd: w.ws, env: env(w), timeoutMs: 120000, name: 'opencode export' });
  report.check('`opencode export <session>` prints the session as JSON with both prompts, offline', () => {
    if (exported.status !== 0) return [`export exited ${exported.status}: ${exported.stderr.slice(-300)}`];
    const text = exported.stdout.slice(exported.stdout.indexOf('{'));
    const p: string[] = [];
    try {
      const j = JSON.parse(text) as { info?: { id?: string }; messages?: unknown[] };
      if (j.info?.id !== s.session) p.push(`exported session ${j.info?.id}`);
      if (!Array.isArray(j.messages)) p.push('no messages array');
    } catch (e) {
      p.push(`not JSON: ${(e as Error).message}`);
    }
    for (const prompt of s.prompts) if (!text.includes(prompt)) p.push(`prompt missing: ${prompt.slice(0, 40)}`);
    return p;
  });
  await forkAndResume(bin, w, report, s.session, s.prompts);
}

/**
 * Conversation rewind: a third prompt, the session exported to a file (our `find`), forked before
 * prompt 2 by our CLI (which loads the fork with `opencode import`), resumed with `opencode run --session`.
 * The parent session in OpenCode's own store keeps every message (exported again after the fork).
 */
async function forkAndResume(bin: string, w: ClientWorld, report: Report, session: string, prompts: string[]): Promise<void> {
  const P3 = 'What does the changelog say now?';
  w.model.setScript([{ text: 'It says the release is ready.' }], 'third prompt');
  const third = await prompt(bin, w, P3, session);
  report.check('a third prompt continues the session', () =>
    third.run.status === 0 ? [] : [`exited ${third.run.status}: ${third.run.stderr.slice(-300)}`],
  );
  const exports = path.join(w.root, 'exports');
  const oenv = { ...env(w), AGENT_REWIND_OPENCODE_BIN: bin };
  let transcript = '';
  report.check("our `find` writes the session's export (`opencode export`) to a file", () => {
    transcript = exportOpencodeSession(session, w.ws, exports, oenv);
    return fs.existsSync(transcript) ? [] : [`no ${transcript}`];
  });
  if (!transcript) return;
  const messageIds = (file: string) =>
    (JSON.parse(fs.readFileSync(file, 'utf8')) as { messages: { info: { id: string } }[] }).messages.map((m) => m.info.id);
  const before = messageIds(transcript);
  const asSent = (t: string) => (t.includes(' ') ? `"${t}"` : t);
  await checkForkAndResume({
    w,
    report,
    transcript,
    prompts: [asSent(prompts[0]!), asSent(prompts[1]!), asSent(P3)],
    env: { ...process.env, ...oenv },
    resumeCommand: (id) => `opencode --session ${id}`,
    resume: (id, text) => prompt(bin, w, text, id),
  });
  report.check("the parent session in OpenCode's store keeps every message after the fork was resumed", () => {
    const again = exportOpencodeSession(session, w.ws, path.join(w.root, 'exports-after'), oenv);
    const after = messageIds(again);
    return JSON.stringify(after) === JSON.stringify(before) ? [] : [`messages before ${before.length}, after ${after.length}`];
  });
}

if (require.main === module) void runClient('opencode', OPENCODE_TOOL, driver);
