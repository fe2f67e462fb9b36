// Forks an OpenCode session before a prompt through its own export/import (1.18's documented way to
// move a session in and out of its SQLite store; we never write that database ourselves): the
// parent's export (`opencode export <id>`, a file) is cut before the prompt's message into a new
// export `<new id>.json` beside it, and `opencode import <file>` loads that into OpenCode, in the
// session's folder (import files the session under the project of the folder it runs in). Import
// inserts rows by id and skips ids it already has (`onConflictDoNothing`), so a copy under the
// parent's message and part ids would come in EMPTY: every session, message and part id is new, in
// OpenCode's own id format (time-ordered: the kept order is the replayed order), and every reference
// (`sessionID`, `messageID`, an assistant's `parentID`) follows. The parent's rows and file are only read.
// Proven against the real 1.18.33 by test/compat/opencode: `opencode run --session <fork>` continues
// with only the kept turns in the model's request.
import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cutRefused, isCutRefused } from '../common/fork';
import type { TranscriptForker, TranscriptForkResult } from '../../recording/forkConversation';
import { type OpencodeExport, opencodePromptOf, readOpencodeExport } from './exportFile';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * OpenCode's id: `<prefix>_` + 12 hex digits of (ms × 4096 + counter) (bitwise NOT for descending
 * ids: sessions list newest first) + 14 random base-62 characters.
 */
export function opencodeId(prefix: 'ses' | 'msg' | 'prt', ms: number, counter: number, descending = false): string {
  let n = BigInt(ms) * 4096n + BigInt(counter);
  if (descending) n = ~n;
  let hex = '';
  for (let i = 0; i < 6; i++)
    hex += Number((n >> BigInt(40 - 8 * i)) & 0xffn)
      .toString(16)
      .padStart(2, '0');
  const rnd = randomBytes(14);
  return `${prefix}_${hex}${Array.from(rnd, (b) => BASE62[b % 62]).join('')}`;
}

/** Ids in order from `now`: the counter stays under 4096 per millisecond as OpenCode's does. */
function idSource(now: number): (prefix: 'msg' | 'prt') => string {
  let i = 0;
  return (prefix) => {
    const k = i++;
    return opencodeId(prefix, now + Math.floor(k / 4000), (k % 4000) + 1);
  };
}

/** Loads an export into OpenCode (`opencode import <file>` in `cwd`); throws when it did not. */
export type OpencodeImporter = (file: string, cwd: string | undefined, session: string) => void;

/** The OpenCode executable: AGENT_REWIND_OPENCODE_BIN when set, else `opencode` on the PATH. */
export const opencodeBin = (env: NodeJS.ProcessEnv = process.env): string => env.AGENT_REWIND_OPENCODE_BIN || 'opencode';

export const runOpencodeImport: OpencodeImporter = (file, cwd, session) => {
  if (cwd && !fs.existsSync(cwd)) throw folderGone(cwd);
  const r = spawnSync(opencodeBin(), ['import', file], { cwd, encoding: 'utf8', timeout: 180000, maxBuffer: 16 << 20 });
  if (r.error || r.status !== 0 || !String(r.stdout).includes(`Imported session: ${session}`))
    throw importFailed(r.error?.message ?? `exit ${r.status}: ${oneLineOf(r.stderr || r.stdout)}`);
};

/** `opencode import` without blocking (the extension host: a cold OpenCode start took 7 s to a minute here, see the notes). */
export function runOpencodeImportAsync(file: string, cwd: string | undefined, session: string): Promise<void> {
  if (cwd && !fs.existsSync(cwd)) return Promise.reject(folderGone(cwd));
  return new Promise((resolve, reject) => {
    execFile(opencodeBin(), ['import', file], { cwd, encoding: 'utf8', timeout: 180000, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (!err && String(stdout).includes(`Imported session: ${session}`)) return resolve();
      reject(importFailed(err?.message ?? `exit 0: ${oneLineOf(stderr || stdout)}`));
    });
  });
}

const folderGone = (cwd: string) =>
  new Error(
    `OpenCode files an imported session under the project of the folder it runs in, and this session's folder ${cwd} does not exist; nothing was kept — restore the folder and fork again.`,
  );

const importFailed = (why: string) =>
  new Error(
    `\`opencode import\` did not load the fork (${why}); check that OpenCode runs here (or set AGENT_REWIND_OPENCODE_BIN) and fork again.`,
  );

const oneLineOf = (s: unknown) =>
  String(s ?? '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(-300);

export interface OpencodeFork extends TranscriptForkResult {
  kept: number;
}

/** The export of the fork: the messages before `cut`, every id new, every reference followed. */
export function cutExport(parent: OpencodeExport, cut: number, newId: string, now: number): OpencodeExport {
  const next = idSource(now);
  const msgIds = new Map<string, string>();
  for (const m of parent.messages.slice(0, cut)) msgIds.set(m.info.id, next('msg'));
  const messages = parent.messages.slice(0, cut).map((m) => {
    const id = msgIds.get(m.info.id)!;
    const parentID = m.info.parentID ? msgIds.get(m.info.parentID) : undefined;
    const { parentID: _old, ...rest } = m.info;
    return {
      info: { ...rest, id, sessionID: newId, ...(parentID ? { parentID } : {}) },
      parts: m.parts.map((p) => ({ ...p, id: next('prt'), sessionID: newId, messageID: id })),
    };
  });
  // A fork is a session of its own: not shared, not reverted, not the child of the parent's parent.
  const { share: _s, revert: _r, parentID: _p, ...info } = parent.info as OpencodeExport['info'] & Record<string, unknown>;
  const time = { ...(typeof info.time === 'object' && info.time ? info.time : {}), created: now, updated: now };
  return { info: { ...info, id: newId, title: `${String(info.title ?? 'Session')} (rewound)`, time }, messages };
}

/** Writes the fork's export beside the parent (mode 0600, never over a file); the caller imports it. */
function writeFork(parentFile: string, beforeId: string, opts: { newId?: string; now?: number }): OpencodeFork {
  const now = opts.now ?? Date.now();
  const newId = opts.newId ?? opencodeId('ses', now, 1, true);
  const parentTranscript = path.resolve(parentFile);
  const parent = readOpencodeExport(parentTranscript);
  const cut = parent.messages.findIndex((m) => m.info.id === beforeId);
  const prompt = cut >= 0 ? opencodePromptOf(parent.messages[cut]!) : null;
  if (!prompt)
    throw cutRefused(
      `${beforeId} is not a prompt of ${parentTranscript}; nothing was written — pick a prompt id from \`conversation show\`.`,
      'not-found',
    );
  const earlier = parent.messages
    .slice(0, cut)
    .map(opencodePromptOf)
    .filter((p) => p !== null);
  if (!earlier.length)
    throw cutRefused('Cannot fork before the first prompt: the fork would hold no conversation; nothing was written.', 'first-prompt');
  const fork = cutExport(parent, cut, newId, now);
  const file = path.join(path.dirname(parentTranscript), `${newId}.json`);
  fs.writeFileSync(file, JSON.stringify(fork, null, 2) + '\n', { flag: 'wx', mode: 0o600 });
  const cwd = typeof parent.info.directory === 'string' ? parent.info.directory : undefined;
  return {
    session: newId,
    transcript: file,
    parent: parent.info.id,
    parentTranscript,
    resume: opencodeResumeCommand(newId),
    cut: { uuid: beforeId, text: prompt.text, occurrence: earlier.filter((p) => p.text === prompt.text).length },
    kept: fork.messages.length,
    ...(cwd ? { cwd } : {}),
  };
}

export function forkOpencodeExport(
  parentFile: string,
  beforeId: string,
  opts: { newId?: string; now?: number; importer?: OpencodeImporter } = {},
): OpencodeFork {
  const f = writeFork(parentFile, beforeId, opts);
  try {
    (opts.importer ?? runOpencodeImport)(f.transcript, f.cwd, f.session);
  } catch (e) {
    fs.rmSync(f.transcript, { force: true }); // a fork OpenCode does not have is no fork: leave nothing behind
    throw e;
  }
  return f;
}

/** The same, the import run without blocking. */
export async function forkOpencodeExportAsync(parentFile: string, beforeId: string): Promise<OpencodeFork> {
  const f = writeFork(parentFile, beforeId, {});
  try {
    await runOpencodeImportAsync(f.transcript, f.cwd, f.session);
  } catch (e) {
    fs.rmSync(f.transcript, { force: true });
    throw e;
  }
  return f;
}

/** The command that resumes an OpenCode session (its TUI; `opencode run --session <id> <prompt>` is the headless form). */
export const opencodeResumeCommand = (session: string): string => `opencode --session ${session}`;

/** OpenCode's export forker, for recording/forkConversation.ts. */
export const opencodeForker: TranscriptForker = {
  agent: 'opencode',
  fork: (transcript, before) => forkOpencodeExport(transcript, before),
  forkAsync: forkOpencodeExportAsync,
  refused: isCutRefused,
};
