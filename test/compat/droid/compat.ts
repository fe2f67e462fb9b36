// The Factory Droid compat tier: our hooks (written by Connect into `.factory/settings.json`), store and
// CLI against the REAL Droid, offline against the kit's scripted model server in its OpenAI
// chat-completions wire format, as a BYOK custom model (`customModels` in ~/.factory/settings.json,
// provider `generic-chat-completion-api`; no Factory login is needed for a custom model). The shared
// session is kit/filesScenario.ts. Prints `droid <version>: <n> checks, <n> passed, <n> failed`.
//
// Installed from the platform package itself (`@factory/cli-<platform>-<arch>`): the registry holds
// `@factory/cli` 0.225.1 but its platform packages only as 0.225.2, so `npm install @factory/cli`
// brings a launcher with no binary (the optional dependency is skipped) whose postinstall would
// download one. FACTORY_AIRGAP_ENABLED keeps it off Factory's services; FACTORY_API_BASE_URL points at
// the scripted server, so any call to Factory's API shows up as an unknown endpoint.
// What the real client showed: `droid exec` fires no UserPromptSubmit (SessionStart, Pre/PostToolUse,
// Stop and SessionEnd only), so a prompt checkpoint never comes from it; continuing a session needs a
// login, forking one does not (the second prompt runs on `exec --fork <id>`, a new session).
//
//   node --import tsx test/compat/droid/compat.ts      (test/compat/run.mjs runs it)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { baseEnv, jsonOf, runCli, type ToolSpec, versionFromOutput } from '../kit/cli';
import { type ClientDriver, type ClientWorld, runClient } from '../kit/filesScenario';
import type { Report } from '../report';

export const DROID_PIN = '0.225.2';
const PLATFORM_PACKAGE = `@factory/cli-${process.platform}-${process.arch}`;
const MODEL = 'custom:Scripted-0';

export const DROID_TOOL: ToolSpec = {
  id: 'droid',
  pkg: PLATFORM_PACKAGE,
  pin: DROID_PIN,
  versionVar: 'DROID_VERSION',
  binVar: 'AGENT_REWIND_DROID_BIN',
  size: '~240 MB',
  candidates: (dir) => [path.join(dir, 'node_modules', ...PLATFORM_PACKAGE.split('/'), 'bin', 'droid')],
  versionOf: (bin) => versionFromOutput(bin, ['--version'], () => ({ FACTORY_AIRGAP_ENABLED: 'true' })),
};

function env(w: ClientWorld): NodeJS.ProcessEnv {
  return {
    ...baseEnv(w.home),
    FACTORY_AIRGAP_ENABLED: 'true',
    FACTORY_API_BASE_URL: `${w.model.url}/factory-api`,
  };
}

function driver(bin: string, version: string): ClientDriver {
  return {
    agent: 'droid',
    version,
    tools: {
      write: (file, content) => [{ call: { name: 'Create', args: { file_path: file, content } } }],
      edit: (file, oldText, newText) => [{ call: { name: 'Edit', args: { file_path: file, old_str: oldText, new_str: newText } } }],
      shell: (command) => [
        {
          call: {
            name: 'Execute',
            args: { command, summary: 'Run a scripted shell step', riskLevel: 'low', riskLevelReason: 'A scripted test step.' },
          },
        },
      ],
    },
    prepare(w) {
      const file = path.join(w.home, '.factory', 'settings.json');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const custom = {
        model: 'scripted-model',
        displayName: 'Scripted',
        baseUrl: `${w.model.url}/v1`,
        apiKey: 'dummy-key-for-the-local-model',
        provider: 'generic-chat-completion-api',
        maxOutputTokens: 4096,
      };
      fs.writeFileSync(file, JSON.stringify({ customModels: [custom] }, null, 2));
    },
    async prompt(w, text, resume) {
      // `exec -s <id>` (continue a session) exits 1 without a word when no Factory login is stored
      // ("No authentication credentials available" in ~/.factory/logs); `exec --fork <id>` works offline.
      const args = ['exec', '-m', MODEL, '--auto', 'high', '-o', 'json', ...(resume ? ['--fork', resume] : []), text];
      const run = await runCli(bin, args, { cwd: w.ws, env: env(w), timeoutMs: 240000, name: 'droid' });
      return { run, session: jsonOf<{ session_id?: string }>(run.stdout)?.session_id };
    },
    promptHook: false,
    ownFiles: ['.factory/settings.json'],
    after: (w, report, s) => conversation(w, report, s),
  };
}

/** Droid's session file, as the hooks' transcript_path names it: ~/.factory/sessions/<cwd as dashes>/<session>.jsonl. */
function conversation(w: ClientWorld, report: Report, s: { session?: string; resumed?: string; prompts: string[] }): void {
  if (!s.session) return;
  const file = (id: string) => path.join(w.home, '.factory', 'sessions', w.ws.replace(/[^A-Za-z0-9]/g, '-'), `${id}.jsonl`);
  report.check(
    'the conversation is a readable file: ~/.factory/sessions/<cwd as dashes>/<session>.jsonl; `exec --fork` wrote a new one with both prompts, the parent has only the first',
    () => {
      const p: string[] = [];
      const parent = fs.existsSync(file(s.session!)) ? fs.readFileSync(file(s.session!), 'utf8') : null;
      const fork = s.resumed && fs.existsSync(file(s.resumed)) ? fs.readFileSync(file(s.resumed), 'utf8') : null;
      if (parent === null) return [`no ${file(s.session!)}`];
      if (!parent.includes(s.prompts[0]!) || parent.includes(s.prompts[1]!)) p.push('the parent does not hold exactly the first prompt');
      if (s.resumed === s.session) p.push('the fork has the parent session id');
      if (fork === null) p.push(`no fork file for ${s.resumed}`);
      else p.push(...s.prompts.filter((x) => !fork.includes(x)).map((x) => `fork: prompt missing: ${x.slice(0, 40)}`));
      return p;
    },
  );
}

if (require.main === module) void runClient('droid', DROID_TOOL, driver);
