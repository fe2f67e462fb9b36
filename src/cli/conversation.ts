// `agent-rewind conversation show|fork`: list the prompts of a conversation, or fork it
// before one of them. Sources: an agent's transcript (--transcript: a Claude Code transcript, a
// Codex rollout, a Gemini CLI or Qwen Code chat, or an OpenCode export, told apart by content) or our own session log
// (--session, for agents without a readable transcript). A cut that is not before a real prompt
// (or is before the first one) exits 4 having written nothing.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { registry } from '../agents/registry';
import { forkConversation, type ForkResult } from '../recording/forkConversation';
import { AgentRewindError } from '../core/errors';
import { readSessionLog, sessionLogFile } from '../core/conversation/sessionLog';
import { loggedPrompts } from '../core/conversation/sessionLogView';
import type { Store } from '../core/store';
import { EXIT, usageError, errOut, out, outJson } from './output';
import { storeFromArgs } from '../recording/storeArg';
import { findHookStore } from '../agents/hookStore';
import { oneLine, shown } from '../shared/text';
import { STORE_FILE } from '../core/storeFiles/names';
import { promptWords } from '../core/timeline/presentation';

type OpenStore = (args: string[], create?: boolean) => Store;

const OPTIONS = {
  store: { type: 'string' },
  json: { type: 'boolean' },
  transcript: { type: 'string' },
  session: { type: 'string' },
  before: { type: 'string' },
} as const;

const USAGE =
  'Usage: agent-rewind conversation show (--transcript <path> | --session <id>) [--json], or ' +
  'agent-rewind conversation fork (--transcript <path> | --session <id>) --before <prompt id> [--json].';

interface ShownPrompt {
  uuid: string;
  text: string;
  time: string | null;
  tools: { id: string; name: string; summary: string; effect: string }[];
}

function parse(args: string[]) {
  try {
    return parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    throw usageError(`${(e as Error).message.replace(/\.$/, '')}. ${USAGE}`);
  }
}

function source(values: { transcript?: string; session?: string }): { transcript: string } | { session: string } {
  if (values.transcript && values.session) throw usageError(`Pass either --transcript or --session, not both. ${USAGE}`);
  if (values.transcript) return { transcript: path.resolve(values.transcript) };
  if (values.session) return { session: values.session };
  throw usageError(`Missing --transcript <path> or --session <id>. ${USAGE}`);
}

function printPrompts(session: string, prompts: ShownPrompt[]): void {
  out(`Session ${shown(session)}: ${promptWords(prompts.length)}`);
  prompts.forEach((p, i) => {
    out(`${String(i + 1).padStart(3)}. ${p.time ?? '(no time)'}  ${shown(p.uuid)}\n     ${shown(oneLine(p.text, 100))}`);
    for (const t of p.tools) out(`       ${shown(t.name).padEnd(10)} ${t.effect.padEnd(13)} ${shown(oneLine(t.summary, 80))}`);
  });
}

function cmdShow(args: string[], openStore: OpenStore): number {
  const { values } = parse(args);
  const src = source(values);
  let session: string;
  let prompts: ShownPrompt[];
  if ('transcript' in src) {
    // Effect overrides from the store's settings, when there is a store; show needs none.
    const dir = storeFromArgs(args);
    const overrides = dir && fs.existsSync(path.join(dir, STORE_FILE.meta)) ? openStore(args).config().effects : [];
    const t = registry.transcriptConversation(src.transcript).read(src.transcript, overrides);
    session = t.session;
    prompts = t.prompts.map((p) => ({
      uuid: p.uuid,
      text: p.text,
      time: p.time,
      tools: p.tools.map((x) => ({ id: x.id, name: x.name, summary: x.summary, effect: x.effect })),
    }));
  } else {
    const store = openStore(args);
    const file = sessionLogFile(store.dir, src.session);
    if (!fs.existsSync(file)) throw new AgentRewindError('session-log-missing', { session: src.session, dir: store.dir });
    session = src.session;
    prompts = loggedPrompts(readSessionLog(file)).map((p) => ({
      uuid: p.uuid,
      text: p.text,
      time: p.time,
      tools: p.tools.map((x) => ({ id: x.id, name: x.name, summary: x.summary, effect: x.effect })),
    }));
  }
  if (values.json) outJson({ session, prompts });
  else printPrompts(session, prompts);
  return EXIT.ok;
}

function cmdFork(args: string[], openStore: OpenStore): number {
  const { values } = parse(args);
  const src = source(values);
  if (!values.before) throw usageError(`Missing --before <prompt id>; run \`agent-rewind conversation show\` to list them. ${USAGE}`);
  const before = values.before;
  const hasStore = storeFromArgs(args) !== null || findHookStore(process.cwd()) !== null;
  if ('session' in src && !hasStore)
    throw usageError(
      'Forking a session log needs the store that holds it: pass --store <dir>, set AGENT_REWIND_STORE, or run this inside a workspace where an agent is connected.',
    );
  const store = hasStore ? openStore(args, true) : null;

  // A refused cut (fork-refused) exits 4 (output.ts).
  const r: ForkResult = forkConversation(
    store,
    src,
    before,
    registry.transcriptConversation('transcript' in src ? src.transcript : undefined).fork,
  );
  if (!r.recorded)
    errOut(
      'Note: no store given (--store, AGENT_REWIND_STORE or a connected agent here), so this fork is not recorded and its resumed agent will not be told what changed.\n',
    );
  const result = { session: r.session, transcript: r.transcript, parent: r.parent, resume: r.resume };
  const lineage = r.lineage;
  if (values.json) outJson(result);
  else {
    out(`Forked session ${shown(result.parent)} before ${shown(oneLine(lineage.cutText, 70))} into session ${shown(result.session)}.`);
    out(`New ${'transcript' in src ? 'transcript' : 'session log'}: ${shown(result.transcript)}`);
    if (result.resume) out(`Resume it with: ${lineage.cwd ? `cd ${JSON.stringify(lineage.cwd)} && ` : ''}${result.resume}`);
  }
  return EXIT.ok;
}

export function runConversation(args: string[], openStore: OpenStore): number {
  const [sub, ...rest] = args;
  if (sub === 'show') return cmdShow(rest, openStore);
  if (sub === 'fork') return cmdFork(rest, openStore);
  throw usageError(`Unknown conversation command "${sub ?? ''}". ${USAGE}`);
}
