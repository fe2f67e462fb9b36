// The OpenCode compat tier: our OpenCode plugin (written by Connect), store and CLI against the REAL
// OpenCode (`opencode-ai`, pinned, installed into the ignored tool folder by the kit's driver),
// offline against the kit's scripted model server in its OpenAI chat-completions wire format (a
// custom provider on `@ai-sdk/openai-compatible`, which the binary bundles). The shared session is
// kit/filesScenario.ts; this file says how OpenCode is installed, configured and run, and checks
// where it keeps the conversation. Prints `opencode <version>: <n> checks, <n> passed, <n> failed`.
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
import { baseEnv, runCli, type ToolSpec, versionFromOutput } from '../kit/cli';
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
  size: '~190 MB',
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
    async prompt(w, text, resume) {
      const args = ['run', '--format', 'json', '--model', MODEL, ...(resume ? ['--session', resume] : []), text];
      const run = await runCli(bin, args, { cwd: w.ws, env: env(w), timeoutMs: 240000, name: 'opencode' });
      return { run, session: sessionOf(run.stdout) };
    },
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
}

if (require.main === module) void runClient('opencode', OPENCODE_TOOL, driver);
