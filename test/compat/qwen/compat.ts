// The Qwen Code compat tier: our hooks (written by Connect into `.qwen/settings.json`), store and CLI
// against the REAL Qwen Code (`@qwen-code/qwen-code`, pinned, installed into the ignored tool folder
// by the kit's driver), offline against the kit's scripted model server in its OpenAI chat-completions
// wire format (OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL; headless `-p … --yolo -o json`). The
// shared session is kit/filesScenario.ts; this file says how Qwen Code is installed and run, and
// checks where it keeps the conversation, that a copied chat file resumes with `--resume`, and that our
// conversation fork (before prompt 2 of 3) resumes with only the kept turns (kit/conversationFork.ts).
// kit/netGuard.cjs logs any host but loopback the CLI tries to reach. Prints
// `qwen <version>: <n> checks, <n> passed, <n> failed`.
//
//   node --import tsx test/compat/qwen/compat.ts      (test/compat/run.mjs runs it)
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { baseEnv, jsonOf, runCli, type ToolSpec } from '../kit/cli';
import { checkForkAndResume } from '../kit/conversationFork';
import { type ClientDriver, type ClientWorld, runClient } from '../kit/filesScenario';
import { readRequests } from '../kit/model.mjs';
import type { RequestRecord, Step } from '../kit/wire/chat.mjs';
import type { Report } from '../report';

export const QWEN_PIN = '0.24.4';
const PACKAGE = '@qwen-code/qwen-code';

/** The package.json beside `cli-entry.js`. */
function versionOf(bin: string): string | null {
  try {
    return (JSON.parse(fs.readFileSync(path.join(path.dirname(bin), 'package.json'), 'utf8')) as { version?: string }).version ?? null;
  } catch {
    return null;
  }
}

export const QWEN_TOOL: ToolSpec = {
  id: 'qwen-code',
  pkg: PACKAGE,
  pin: QWEN_PIN,
  versionVar: 'QWEN_CODE_VERSION',
  binVar: 'AGENT_REWIND_QWEN_BIN',
  // Plain JavaScript (a bundle) run with the node that runs us; its version from its package.json.
  candidates: (dir) => [path.join(dir, 'node_modules', ...PACKAGE.split('/'), 'cli-entry.js')],
  versionOf,
};

const netLog = (w: ClientWorld) => path.join(w.root, 'net.jsonl');

function env(w: ClientWorld): NodeJS.ProcessEnv {
  return {
    ...baseEnv(w.home),
    OPENAI_BASE_URL: `${w.model.url}/v1`,
    OPENAI_API_KEY: 'dummy-key-for-the-local-model',
    OPENAI_MODEL: 'scripted-model',
    QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
    NODE_OPTIONS: `--require ${path.join(__dirname, '..', 'kit', 'netGuard.cjs')}`,
    AGENT_REWIND_NET_LOG: netLog(w),
  };
}

/** `~/.qwen/projects/<cwd, every non-alphanumeric character as ->/chats/<session>.jsonl`, as the hooks' transcript_path names it. */
function chatFile(w: ClientWorld, session: string): string {
  return path.join(w.home, '.qwen', 'projects', w.ws.replace(/[^A-Za-z0-9]/g, '-'), 'chats', `${session}.jsonl`);
}

const read = (file: string): Step => ({ call: { name: 'read_file', args: { file_path: file } } });

function driver(bin: string, version: string): ClientDriver {
  const prompt = async (w: ClientWorld, text: string, resume?: string) => {
    const args = ['-p', text, '--yolo', '-o', 'json', ...(resume ? ['--resume', resume] : [])];
    const run = await runCli(bin, args, { cwd: w.ws, env: env(w), timeoutMs: 240000, name: 'qwen' });
    const result = (jsonOf<{ type?: string; session_id?: string }[]>(run.stdout) ?? []).find((e) => e.type === 'result');
    return { run, session: result?.session_id };
  };
  return {
    agent: 'qwen',
    version,
    // Qwen Code refuses to edit a file "not read in this session" (the edit tool, and `sed -i` through the
    // shell too), and a resumed session has read nothing yet: each edit reads its file first.
    tools: {
      write: (file, content) => [{ call: { name: 'write_file', args: { file_path: file, content } } }],
      edit: (file, oldText, newText) => [
        read(file),
        { call: { name: 'edit', args: { file_path: file, old_string: oldText, new_string: newText } } },
      ],
      shell: (command, touches = []) => [
        ...touches.map(read),
        { call: { name: 'run_shell_command', args: { command, description: 'Scripted shell step.' } } },
      ],
    },
    prepare(w) {
      // User settings: no usage statistics, no update checks (the project settings are Connect's).
      const file = path.join(w.home, '.qwen', 'settings.json');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(
        file,
        JSON.stringify({
          privacy: { usageStatisticsEnabled: false },
          general: { enableAutoUpdate: false, disableAutoUpdate: true, disableUpdateNag: true },
        }),
      );
    },
    prompt,
    ownFiles: ['.qwen/settings.json'],
    after: (w, report, s) => conversation(w, report, s, prompt),
  };
}

/** Qwen's chat file: a JSONL chain (uuid / parentUuid, like Claude's) of records whose `message` is in Gemini's parts format. */
async function conversation(
  w: ClientWorld,
  report: Report,
  s: { session?: string; prompts: string[] },
  prompt: (w: ClientWorld, text: string, resume?: string) => Promise<{ run: { status: number | null; stderr: string }; session?: string }>,
): Promise<void> {
  report.check('no host but loopback was reached for', () => {
    const f = netLog(w);
    const hosts = fs.existsSync(f)
      ? [
          ...new Set(
            fs
              .readFileSync(f, 'utf8')
              .trim()
              .split('\n')
              .map((l) => (JSON.parse(l) as { host: string }).host),
          ),
        ]
      : [];
    return hosts.map((h) => `tried to reach ${h}`);
  });
  if (!s.session) return;
  const chat = chatFile(w, s.session);
  report.check('the conversation is a readable file: ~/.qwen/projects/<cwd as dashes>/chats/<session>.jsonl with both prompts', () => {
    if (!fs.existsSync(chat)) return [`no ${chat}`];
    const text = fs.readFileSync(chat, 'utf8');
    return s.prompts.filter((p) => !text.includes(p)).map((p) => `prompt missing: ${p.slice(0, 40)}`);
  });
  if (!fs.existsSync(chat)) return;
  // A copy under a new id (every sessionId field rewritten) is a new session `--resume` accepts.
  const copy = randomUUID();
  const lines = fs
    .readFileSync(chat, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.stringify({ ...(JSON.parse(l) as object), sessionId: copy }));
  fs.writeFileSync(chatFile(w, copy), lines.join('\n') + '\n');
  const P3 = 'What does the changelog say now?';
  w.model.setScript([{ text: 'It says the release is ready.' }], 'copied chat resumed');
  const before = readRequests(w.requestLog).length;
  const r = await prompt(w, P3, copy);
  const q = readRequests<RequestRecord>(w.requestLog)
    .slice(before)
    .find((x) => x.kind === 'main');
  report.check('a copied chat file under a new session id resumes with `qwen --resume <id>`: the whole history reaches the model', () => {
    const p: string[] = [];
    if (r.run.status !== 0) p.push(`exited ${r.run.status}: ${r.run.stderr.slice(-300)}`);
    if (r.session !== copy) p.push(`ran as session ${r.session}, not the copy's ${copy}`);
    for (const t of [...s.prompts, P3]) if (!q?.userTexts?.some((u) => u.includes(t))) p.push(`not in the history: ${t.slice(0, 40)}`);
    return p;
  });
  // Conversation rewind: the copy now holds three prompts; fork it before the second with our CLI and resume the fork.
  await checkForkAndResume({
    w,
    report,
    transcript: chatFile(w, copy),
    prompts: [s.prompts[0]!, s.prompts[1]!, P3],
    env: { ...process.env, ...env(w) },
    resumeCommand: (id) => `qwen --resume ${id}`,
    resume: (id, text) => prompt(w, text, id),
  });
}

if (require.main === module) void runClient('qwen', QWEN_TOOL, driver);
