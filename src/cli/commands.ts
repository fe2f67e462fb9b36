// Every `agent-rewind` command but `hook`. Output contract: the README's command-line section (JSON field names, exit
// codes). Errors: one plain sentence on stderr that says what to do next.
import * as path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { newId } from '../core/storeFiles/ids';
import { gc, storeBytes } from '../core/upkeep/gc';
import { storageUse } from '../core/upkeep/storageUse';
import { rewind } from '../core/rewind/apply';
import { leftAloneJson, makePlan, type Plan, planJson, rewindTotalsOf } from '../core/rewind/plan';
import { checkFilters } from '../core/rewind/filters';
import { notRestorableJson } from '../core/rewind/gaps';
import { recoverUnfinished } from '../core/rewind/journal';
import {
  ATTEMPT_POINT,
  type Attempt,
  attemptOfPoint,
  type AttemptTree,
  buildAttempts,
  type OwnWork,
  ownWorkOfAll,
} from '../core/timeline/attempts';
import { attemptRow, checkpointRow, checkpointWords, fileWords, promptWords, sessionWords } from '../core/timeline/presentation';
import { diffPoints, NOW_POINT, resolvePoint } from '../core/timeline/compare';
import { Store } from '../core/store';
import { BEFORE_CALL } from '../core/timeline/timeline';
import type { CheckpointRecord, Sequenced } from '../core/storeFiles/records';
import { verifyStore } from '../core/upkeep/verify';
import { runConversation } from './conversation';
import { LINE_OPTIONS, lineOptions } from './lineChoice';
import { iso, printLeftAlone, printNotRestorable, printPlan, quoted, refusalMessage } from './planText';
import { printStatus } from './status';
import { printWritten } from './rewindResult';
import { EXIT, usageError, errOut, fail, out, outJson, outJsonRows } from './output';
import { storeDir } from './storeDir';
import { oneLine, rewindCountWords, shown } from '../shared/text';

const HELP = `agent-rewind — record what coding agents do, rewind files and conversations

Usage:
  agent-rewind hook <agent> [event]               record one hook payload from stdin (claude, codex, gemini,
                                                  vscode, copilot, cursor, cline, opencode, qwen, droid,
                                                  auggie, windsurf, kiro; the payload's shape wins over the name)
  agent-rewind checkpoints [--json [--folds]]     list checkpoints, oldest first (--folds: each one's foldedInto)
  agent-rewind plan --to <checkpoint> [--json]    dry run: what a rewind would do (touches nothing)
  agent-rewind rewind --to <checkpoint> [--force] [--keep-mine] [--hunks <file>=<id>[,<id>…]]... [--json]
  agent-rewind plan|rewind --before-call <tool call id> ...   to just before one tool call
  agent-rewind diff <A> <B> [--path <file>]... [--json]
                                                  what changed from point A to point B (touches nothing);
                                                  a point is a checkpoint id, now (the disk), or attempt:<n>
  agent-rewind attempts [--json]                  the attempts: each rewind followed by new work starts one
  agent-rewind checkpoint [--label <text>]        record a manual checkpoint
  agent-rewind verify [--json]                    check every blob and line of the store
  agent-rewind gc [--keep-days N] [--max-gb N] [--json]
                                                  drop old checkpoints (and the oldest ones beyond N GB),
                                                  sweep unused blobs
  agent-rewind storage [--json]                   what the store's space is spent on, by session and by age
  agent-rewind status [--json]                    whether the store's resident recorder runs, and what the
                                                  store holds
  agent-rewind conversation show (--transcript <path> | --session <id>) [--json]
  agent-rewind conversation fork (--transcript <path> | --session <id>) --before <prompt-id> [--json]

Options:
  --store <dir>   the store folder (default: $AGENT_REWIND_STORE, else the store a connected
                  agent's hook configuration names in this folder or the nearest one above)
  --session <id>  (plan, rewind) only this session's changes;
                  (conversation show, fork) that session's log in the store, for agents whose
                  transcript cannot be read (instead of --transcript)
  --path <file>   (plan, rewind, diff) only this file (repeatable)
  --keep-mine     (rewind) files you changed since the agent: revert its lines, keep yours (3-way merge)
  --hunks <file>=<ids>  (rewind) only these hunks of this file (ids from plan --json; repeatable)
  --to <point>    (plan, rewind) a checkpoint id, or attempt:<n> (the end of attempt n: take files
                  from it with --path)

Exit codes: 0 ok, 1 error, 2 usage, 3 refused by the safety check, 4 refused conversation cut.`;

const COMMON = { store: { type: 'string' }, json: { type: 'boolean' } } as const;

function parse<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T) {
  try {
    return parseArgs({ args, options: { ...COMMON, ...options }, allowPositionals: true, strict: true });
  } catch (e) {
    throw usageError(`${(e as Error).message.replace(/\.$/, '')}. Run \`agent-rewind help\` for usage.`);
  }
}

function openStore(args: string[], create = false): Store {
  const dir = storeDir(args);
  const store = Store.open(dir, { create });
  const rec = recoverUnfinished(store);
  if (rec) {
    errOut(
      `Finished an interrupted rewind (checkpoint ${rec.checkpoint}): ${rec.written.length} file(s) had been written, ` +
        `${rec.notWritten.length} had not${rec.changedSince.length ? `, ${rec.changedSince.length} changed since` : ''}. ` +
        `Undo it with \`agent-rewind rewind --to ${rec.checkpoint}\`, or rewind again.\n`,
    );
  }
  return store;
}

function cmdCheckpoints(args: string[]): number {
  const { values } = parse(args, { folds: { type: 'boolean' } });
  const store = openStore(args);
  const { columns: c, stretches, labels, folds } = store.checkpointList();
  const n = c.ids.length;
  // The label every surface shows (presentation.ts checkpointLabel), old stores' rewinds too; the attempts read only for a rewind to a rewind.
  const label = labels(() => buildAttempts(store.timeline().attemptInput()));
  // The count the Files view and the preview show: what a rewind to each would write (plan --to's `files`).
  const toRewind = n ? rewindTotalsOf(store, stretches(), n) : new Int32Array(0);
  // The row every surface presents (core/timeline/presentation.ts), the time in ISO 8601: made from the columns one
  // at a time and printed, not kept; changed in place (its fields keep their order), not copied, since a copy of each
  // of 10,000 rows cost more than making the row (measured: ~30 ms of CPU on a loaded machine).
  const rowAt = (i: number) => {
    const row = checkpointRow(
      {
        id: c.ids[i]!,
        time: c.time[i]!,
        kind: c.kind[i]!,
        label: c.label[i]!,
        session: c.session[i] ?? undefined,
        agent: c.agent[i] ?? undefined,
      },
      { toRewind: toRewind[i]!, edited: c.files[i]! },
      label[i],
    );
    return Object.assign(row as Omit<typeof row, 'time'> & { time: number | string }, { time: iso(row.time), files: row.edited });
  };
  if (values.json) {
    // The story the views tell (core/timeline/folding.ts), asked for with --folds: a checkpoint whose workspace state
    // is its neighbour's names the row it folds into. Without it the rows are exactly DESIGN §5's fields, which
    // scripts compare whole; the text listing stays one line per checkpoint.
    if (!values.folds) {
      outJsonRows(n, rowAt);
      return EXIT.ok;
    }
    const into = folds().into;
    outJsonRows(n, (i) => {
      const row = rowAt(i);
      const to = into.get(c.ids[i]!);
      return to === undefined ? row : Object.assign(row, { foldedInto: to });
    });
    return EXIT.ok;
  }
  if (n === 0) {
    out('No checkpoints recorded yet. Connect an agent (e.g. Claude Code hooks) and start a session.');
    return EXIT.ok;
  }
  // One write, not one per row (10,000 rows were 10,000 writes to the pipe); each count worded once. The text's
  // fields are read from the columns without a row, the label the model's (`label`, as the row would have it).
  const words = new Map<number, string>();
  const worded = (k: number) => words.get(k) ?? words.set(k, rewindCountWords(k).padStart(19)).get(k)!;
  const lines = new Array<string>(n);
  for (let i = 0; i < n; i++)
    lines[i] = `${iso(c.time[i]!)}  ${c.ids[i]}  ${c.kind[i]!.padEnd(13)} ${worded(toRewind[i]!)}  ${shown(oneLine(label[i]!, 70))}`;
  out(lines.join('\n'));
  return EXIT.ok;
}

const PLAN_OPTIONS = {
  to: { type: 'string' },
  'before-call': { type: 'string' },
  session: { type: 'string', multiple: true },
  path: { type: 'string', multiple: true },
} as const;

function planArgs(values: { to?: string; 'before-call'?: string; session?: string[]; path?: string[] }) {
  const call = values['before-call'];
  if (values.to !== undefined && call !== undefined)
    throw usageError('Give --to <checkpoint-id> or --before-call <tool call id>, not both.');
  if (!values.to && !call)
    throw usageError(
      'Missing --to <checkpoint-id> (`agent-rewind checkpoints` lists them) or --before-call <tool call id> (`agent-rewind conversation show` lists them).',
    );
  return {
    to: call ? BEFORE_CALL + call : values.to!,
    // A --path relative to the current folder, as a shell user types it.
    opts: {
      strictFilters: true,
      ...(values.session ? { sessions: values.session } : {}),
      ...(values.path ? { paths: values.path.map((p) => path.resolve(process.cwd(), p)) } : {}),
    },
  };
}

/** The plan with its target's label as `checkpoints` and every view say it (a rewind checkpoint's, from its target). */
function shownPlan(store: Store, plan: Plan): Plan {
  if (plan.target.kind !== 'rewind' || plan.target.call) return plan;
  const list = store.checkpointList();
  const i = list.checkpoints.findIndex((c) => c.id === plan.target.id);
  if (i < 0) return plan;
  const label = list.labels(() => buildAttempts(store.timeline().attemptInput()))[i]!;
  return { ...plan, target: { ...plan.target, label } };
}

function cmdPlan(args: string[]): number {
  const { values } = parse(args, PLAN_OPTIONS);
  const { to, opts } = planArgs(values);
  const store = openStore(args);
  const plan = shownPlan(store, makePlan(store, to, { ...opts, viaIndex: true }));
  if (values.json) outJson(planJson(plan));
  else printPlan(plan, to);
  return EXIT.ok;
}

async function cmdRewind(args: string[]): Promise<number> {
  const { values } = parse(args, { ...PLAN_OPTIONS, ...LINE_OPTIONS, force: { type: 'boolean' } });
  const { to, opts } = planArgs(values);
  const store = openStore(args);
  const r = await rewind(store, to, { ...opts, ...lineOptions(values, opts), force: !!values.force });
  if (r.status === 'refused') {
    if (values.json) outJson({ status: 'refused', ...planJson(shownPlan(store, r.plan)) });
    // The result says what a scoped rewind leaves alone, refused or not (the refusal itself is on stderr).
    else printLeftAlone(r.plan);
    errOut(refusalMessage(r.plan) + '\n');
    return EXIT.refused;
  }
  if (r.status === 'stale') {
    // Only VS Code passes the plan it showed (`expect`); kept for completeness.
    errOut(`Refused: ${r.changed.map((c) => shown(c.path)).join(', ')} changed since the plan was made. Nothing was written.\n`);
    return EXIT.refused;
  }
  if (r.status === 'vetoed') {
    // Only VS Code vetoes (unsaved editors); kept for completeness.
    errOut(`Refused: ${r.paths.map(shown).join(', ')} cannot be written right now. Nothing was written.\n`);
    return EXIT.refused;
  }
  if (r.status === 'blocked-io') {
    if (values.json) outJson({ status: 'not-writable', problems: r.problems });
    errOut(
      `Nothing was written: ${r.problems.map((p) => `${shown(p.path)} (${p.error})`).join('; ')}. Fix the permissions and rewind again.\n`,
    );
    return EXIT.error;
  }
  if (r.status === 'nothing') {
    if (values.json)
      outJson({
        status: 'nothing',
        target: r.plan.target.id,
        files: [],
        warnings: r.plan.warnings,
        notUndone: planJson(r.plan).notUndone,
        notRestorable: notRestorableJson(r.plan.notRestorable),
        leftAlone: leftAloneJson(r.plan),
      });
    else {
      out(
        r.plan.leftAlone.length
          ? `Nothing rewound: every file this selection would change is left alone (below).`
          : `Nothing to rewind: the recorded files already match ${r.plan.target.call ? 'the moment before call' : 'checkpoint'} ${r.plan.target.id}.`,
      );
      printNotRestorable(r.plan);
      printLeftAlone(r.plan);
    }
    return EXIT.ok;
  }
  return printWritten(r, !!values.json, () => {
    printNotRestorable(r.plan);
    printLeftAlone(r.plan);
    if (r.plan.notUndone.length) out(`Not undone: ${r.plan.notUndone.map((n) => `${shown(n.tool)}: ${shown(n.summary)}`).join('; ')}`);
  });
}

function cmdCheckpoint(args: string[]): number {
  const { values } = parse(args, { label: { type: 'string' } });
  const store = openStore(args, true);
  const id = newId();
  store.append([store.checkpointRecord({ id, kind: 'manual', label: values.label ?? 'Manual checkpoint', agent: 'user' })]);
  if (values.json) outJson({ id }, undefined);
  else out(`Checkpoint ${id} recorded.`);
  return EXIT.ok;
}

function cmdVerify(args: string[]): number {
  const { values } = parse(args, {});
  const store = openStore(args);
  const r = verifyStore(store);
  if (values.json) outJson(r);
  else {
    out(
      `${r.ok ? 'Store is sound' : 'Store has problems'}: ${r.lines} line(s), ${r.checkpoints} checkpoint(s), ${r.blobs} blob(s) checked.`,
    );
    for (const e of r.errors) out(`  error: ${e}`);
    for (const w of r.warnings) out(`  warning: ${w}`);
  }
  if (!r.ok && !values.json) errOut('The store failed verification; the errors above name what is damaged.\n');
  return r.ok ? EXIT.ok : EXIT.error;
}

function mb(n: number): string {
  return `${(n / 1048576).toFixed(1)} MB`;
}

const GB = 1024 ** 3;

function cmdGc(args: string[]): number {
  const { values } = parse(args, { 'keep-days': { type: 'string' }, 'max-gb': { type: 'string' } });
  const raw = values['keep-days'];
  const rawGb = values['max-gb'];
  if (raw !== undefined && !(Number(raw) >= 0)) throw usageError('--keep-days takes a number of days (0 or more).');
  if (rawGb !== undefined && !(Number(rawGb) > 0))
    throw usageError('--max-gb takes a size in GB greater than 0, e.g. --max-gb 2 or --max-gb 0.5.');
  const store = openStore(args);
  const keepDays = raw === undefined ? store.config().keepDays : Number(raw);
  const maxBytes = rawGb !== undefined ? Math.round(Number(rawGb) * GB) : store.config().maxStorageBytes || undefined;
  const before = storeBytes(store);
  const r = gc(store, keepDays, Date.now(), maxBytes === undefined ? {} : { maxBytes });
  if (values.json) outJson({ keepDays, bytesBefore: before, ...r });
  else {
    const size = r.sizeLimit;
    out(
      `Freed ${mb(r.bytesFreed)}: ${r.blobsFreed} blob(s), ${r.droppedCheckpoints - (size?.droppedCheckpoints ?? 0)} checkpoint(s) older than ${keepDays} day(s)` +
        `${size ? ` and ${size.droppedCheckpoints} more, the oldest, to stay under ${(size.maxBytes / GB).toFixed(2)} GB` : ''}, ` +
        `${r.droppedLines} line(s), ${r.tempFilesRemoved} temp file(s). Kept ${r.keptCheckpoints} checkpoint(s); the store now holds ${mb(r.bytesLeft)}.`,
    );
    for (const k of r.kept)
      out(
        k.reason === 'last-rewind'
          ? `Kept checkpoint ${k.checkpoint} (${iso(k.time)}) and what it needs: it is the undo of the last rewind.`
          : `Kept checkpoint ${k.checkpoint} (${iso(k.time)}) and what it needs: its undo brings back your own edits a rewind overwrote, recorded nowhere newer (${k.paths.length} file(s): ${k.paths.slice(0, 3).map(shown).join(', ')}${k.paths.length > 3 ? ', …' : ''}).`,
      );
    if (size && !size.fits)
      out(
        `Still over ${(size.maxBytes / GB).toFixed(2)} GB: what is left is the latest checkpoint and the rewinds kept above, which gc never removes.`,
      );
  }
  return EXIT.ok;
}

function ago(t: number): string {
  const days = (Date.now() - t) / 86400000;
  return days < 1 ? `${Math.max(0, Math.round(days * 24))} h ago` : `${Math.round(days)} d ago`;
}

function cmdStorage(args: string[]): number {
  const { values } = parse(args, {});
  const store = openStore(args);
  const u = storageUse(store);
  if (values.json) {
    outJson({ ...u, sessions: u.sessions.map((s) => ({ ...s, first: iso(s.first), last: iso(s.last) })) });
    return EXIT.ok;
  }
  out(
    `The store holds ${mb(u.totalBytes)}: file copies ${mb(u.recordedBytes)}, timeline ${mb(u.logBytes)}, ` +
      `shell-capture baselines ${mb(u.scanBytes)}, unused (freed by gc) ${mb(u.unreferencedBytes)}, other ${mb(u.otherBytes)}.`,
  );
  out('\nBy age (file copies counted when first recorded):');
  for (const a of u.byAge) out(`  ${`${a.days} days`.padEnd(10)} ${mb(a.bytes).padStart(10)}  ${checkpointWords(a.checkpoints)}`);
  out(`\nBy session (${sessionWords(u.sessions.length)}, largest first):`);
  for (const s of u.sessions)
    out(
      `  ${mb(s.bytes).padStart(10)}  ${checkpointWords(s.checkpoints).padStart(17)}  ${ago(s.last).padStart(8)}  ${shown(s.agent ?? '-')}  ${shown(s.session)}  ${shown(oneLine(s.label, 50))}`,
    );
  if (u.own.checkpoints || u.own.bytes)
    out(`
Your own actions (rewinds, undos, takes, manual checkpoints): ${mb(u.own.bytes)}, ${checkpointWords(u.own.checkpoints)}.`);
  out(`\nFree space: agent-rewind gc --keep-days <days> [--max-gb <size>]`);
  return EXIT.ok;
}

function cmdDiff(args: string[]): number {
  const { values, positionals } = parse(args, { path: { type: 'string', multiple: true } });
  if (positionals.length !== 2)
    throw usageError(
      `diff compares two points, ${positionals.length < 2 ? `${positionals.length ? 'one was' : 'none were'} given` : `${positionals.length} were given`}: agent-rewind diff <A> <B>, each a checkpoint id, now, or attempt:<n>.`,
    );
  const [a, b] = positionals as [string, string];
  const store = openStore(args);
  let records: readonly Sequenced[];
  let tree: AttemptTree | undefined;
  if (a.startsWith(BEFORE_CALL) || b.startsWith(BEFORE_CALL)) {
    records = store.read().records; // a point before a tool call: every call line
    tree = buildAttempts(records);
  } else {
    // Checkpoints, attempts' ends and `now`: the index, with of each path only the snapshots around the two points.
    const s = store.timeline();
    if (a.startsWith(ATTEMPT_POINT) || b.startsWith(ATTEMPT_POINT)) tree = buildAttempts(s.attemptInput());
    // The checkpoints the points name: all the records need of the checkpoints, unless one is not found (then all
    // of them, for resolvePoint to say which ones a prefix matches).
    const named: Sequenced<CheckpointRecord>[] = [];
    let unfound = false;
    const seqOf = (p: string): number[] => {
      if (p === NOW_POINT) return [];
      if (p.startsWith(ATTEMPT_POINT)) {
        const end = attemptOfPoint(tree!, p)?.end;
        unfound ||= !end; // an attempt in progress ends now, at the log's last line (a checkpoint, maybe)
        return end ? [end.seq] : [];
      }
      const found = s.findCheckpoint(p);
      if (found.ok) named.push(found.checkpoint);
      else unfound = true;
      return found.ok ? [found.checkpoint.seq] : [];
    };
    const seqs = [...seqOf(a), ...seqOf(b)];
    records = s.around(seqs, unfound ? undefined : named);
  }
  const from = resolvePoint(records, a, tree);
  const to = resolvePoint(records, b, tree);
  const paths = values.path?.map((p) => path.resolve(process.cwd(), p));
  if (paths?.length) checkFilters(records, { paths });
  const d = diffPoints(
    records,
    from,
    to,
    { content: (h) => store.content(h), maxFileBytes: store.config().maxFileBytes, hashOf: (x) => store.hashOf(x) },
    paths,
  );
  if (values.json) {
    outJson({ from: a, to: b, files: d.files });
    return EXIT.ok;
  }
  if (d.files.length === 0) {
    out(`No recorded file differs between ${shown(a)} and ${shown(b)}.`);
    return EXIT.ok;
  }
  out(`From ${shown(a)} to ${shown(b)}: ${d.files.length} file(s)`);
  for (const f of d.files)
    out(
      `  ${f.change.padEnd(8)} ${f.tooLarge ? '(too large to compare)' : f.binary ? '(binary)' : `+${f.plus} -${f.minus}`}  ${shown(f.path)}`,
    );
  return EXIT.ok;
}

function attemptJson(a: Attempt, own: OwnWork) {
  // Its own work: after the point where it leaves the current line (the Files view's counts).
  return {
    n: a.n,
    point: `attempt:${a.n}`,
    current: a.current,
    parent: a.parent ?? null,
    branchedAt: a.branchedAt ?? a.branchedAtCall ?? null,
    start: a.start.id || null,
    end: a.end?.id ?? null,
    left: a.end ? iso(a.end.time) : null,
    prompts: own.prompts.map((p) => ({ id: p.id, label: p.label, time: iso(p.time), session: p.session ?? null })),
    sessions: own.sessions,
    agents: own.agents,
    files: own.files,
  };
}

function cmdAttempts(args: string[]): number {
  const { values } = parse(args, {});
  const store = openStore(args);
  const tree = buildAttempts(store.timeline().attemptInput());
  const own = ownWorkOfAll(tree);
  const list = tree.attempts.map((a) => attemptJson(a, own.get(a.n)!));
  const rows = tree.attempts.map((a) => attemptRow(a, own.get(a.n)!));
  if (values.json) {
    outJson(list);
    return EXIT.ok;
  }
  if (list.length === 0) {
    out('No attempts recorded yet: an attempt begins with the first prompt.');
    return EXIT.ok;
  }
  list.forEach((a, i) => {
    const row = rows[i]!;
    const where = a.parent ? `branched from attempt ${a.parent} at ${a.branchedAt}` : 'the first';
    const state = a.current ? 'in progress' : `left ${a.left} (its end: ${a.end})`;
    // The counts worded as the Files view words its row ("1 prompt · 7 files"), in English.
    out(
      `attempt:${a.n}  ${where}; ${promptWords(row.prompts)}, ${fileWords(row.files)}; ${state}${row.firstPrompt !== null ? `  ${quoted(oneLine(row.firstPrompt, 60))}` : ''}`,
    );
  });
  out(
    '\nCompare two: agent-rewind diff attempt:<n> attempt:<m>. Take a file from one: agent-rewind rewind --to attempt:<n> --path <file>.',
  );
  return EXIT.ok;
}

const COMMANDS: Record<string, (args: string[]) => number | Promise<number>> = {
  checkpoints: cmdCheckpoints,
  plan: cmdPlan,
  rewind: cmdRewind,
  checkpoint: cmdCheckpoint,
  verify: cmdVerify,
  gc: cmdGc,
  storage: cmdStorage,
  status: (args) => printStatus(openStore(args), !!parse(args, {}).values.json),
  diff: cmdDiff,
  attempts: cmdAttempts,
  conversation: (args) => runConversation(args, openStore),
};

export async function runCommand(command: string | undefined, args: string[]): Promise<number> {
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    out(HELP);
    return command ? EXIT.ok : EXIT.usage;
  }
  if (command === '--version' || command === 'version') {
    out(__AGENT_REWIND_VERSION__);
    return EXIT.ok;
  }
  const fn = COMMANDS[command];
  if (!fn) return fail(usageError(`Unknown command "${command}". Run \`agent-rewind help\` for the list.`));
  try {
    return await fn(args);
  } catch (e) {
    return fail(e);
  }
}

declare const __AGENT_REWIND_VERSION__: string;
