// The plan's text in words the CLI prints: why a file is refused, left alone or cannot be restored,
// and the ways out of a refusal. `plan` and `rewind` share them (commands.ts).
import type { Plan } from '../core/rewind/plan';
import type { NotRecorded } from '../core/rewind/gaps';
import type { EditOrigin } from '../core/rewind/safety';
import { LEFT_ALONE, type Reason, REASONS, yourEditWords } from '../shared/reasons';
import { oneLine, shown } from '../shared/text';
import { ATTEMPT_POINT } from '../core/timeline/attempts';
import { keepMineWayOut, mergeWords } from './lineChoice';
import { out } from './output';
import { isoTime } from '../shared/time';

/** ISO 8601, as every CLI time is written (shared/time.ts). */
export const iso = isoTime;

/** A label in quotes: as `shown` quotes it when it holds a control character, else in plain quotes. */
export function quoted(s: string): string {
  const v = shown(s);
  return v === s ? `"${s}"` : v;
}

/** `to`: the point as the user named it (`attempt:<n>` is said as such, not as the rewind checkpoint that ended it). */
export function printPlan(plan: Plan, to: string): void {
  const t = plan.target;
  if (t.call)
    out(
      `Rewind to just before step ${t.call.step} of ${t.call.of} of its turn (call ${shown(t.id)}, ${iso(t.time)}): ${shown(oneLine(t.label, 70))}`,
    );
  else if (to.startsWith(ATTEMPT_POINT)) out(`Rewind to the end of attempt ${shown(to.slice(ATTEMPT_POINT.length))} (left ${iso(t.time)})`);
  // A rewind's label quotes its own target already.
  else
    out(
      `Rewind to ${t.id} (${t.kind}, ${iso(t.time)}): ${t.kind === 'rewind' ? shown(oneLine(t.label, 90)) : quoted(oneLine(t.label, 70))}`,
    );
  if (plan.notUndone.length) {
    out(`\nWill NOT be undone (${plan.notUndone.length}):`);
    for (const n of plan.notUndone)
      out(
        `  ${n.effect}${n.severity === 'low' ? ' (unknown command)' : ''}: ${shown(n.tool)}: ${shown(n.summary)}${n.compensation ? `\n      compensation: ${shown(n.compensation)}` : ''}`,
      );
  } else out('\nNothing recorded after this checkpoint needs undoing outside the files.');
  if (plan.files.length === 0) out('\nNo files to change: the recorded files already match this checkpoint.');
  else {
    out(`\nFiles (${plan.files.length}):`);
    for (const f of plan.files)
      out(`  ${f.action.padEnd(8)} +${f.insertions} -${f.deletions}${f.binary ? ' (binary)' : ''}  ${shown(f.path)}`);
  }
  printNotRestorable(plan);
  printLeftAlone(plan);
  if (plan.blocked.length) {
    out(`\nBlocked (${plan.blocked.length}) — rewinding would overwrite work that is not the agent's:`);
    for (const b of plan.blocked) out(blockedLine(b, plan));
  }
  if (plan.uncertain.length) {
    out(`\nUncertain (${plan.uncertain.length}) — changed with nothing recorded around this point; rewound only with --force:`);
    for (const u of plan.uncertain) out(uncertainLine(u));
  }
  for (const w of plan.warnings) {
    const words = w.edit ? `${said(w.reason)}: ${editWords(w.edit)}` : said(w.reason);
    out(`  warning: ${shown(w.path)} ${words}${w.since !== undefined && !w.edit ? ` (first seen ${iso(w.since)})` : ''}`);
  }
  for (const u of plan.uncommitted) out(`  note: ${shown(u)} has uncommitted changes in git`);
}

function editWords(e: EditOrigin): string {
  return yourEditWords({
    how: e.how,
    since: iso(e.since),
    ...(e.restored ? { restored: { time: iso(e.restored.time), undo: e.restored.undo } } : {}),
  });
}

function blockedLine(b: Plan['blocked'][number], plan: Pick<Plan, 'merges'>): string {
  return `  ${b.reason}: ${shown(b.path)} — ${b.edit ? editWords(b.edit) : said(b.reason)}${mergeWords(b, plan)}`;
}

function uncertainLine(u: Plan['uncertain'][number]): string {
  return `  ${u.reason}: ${shown(u.path)} — ${said(u.reason)} (recorded ${iso(u.recorded.time)}, found different ${iso(u.found.time)})`;
}

/** A reason in words, with what to do about it where something can be done. */
function said(reason: Reason): string {
  const w = REASONS[reason];
  return w.fix ? `${w.short} (${w.fix})` : w.short;
}

/** Files a rewind leaves as they are, and why: listed, never silently skipped. */
export function printNotRestorable(plan: Plan): void {
  const gaps = plan.notRestorable.filter((n): n is NotRecorded => 'time' in n);
  const cannot = plan.notRestorable.filter((n) => !('time' in n));
  if (cannot.length) {
    out(`\nCannot restore (${cannot.length}) — left as they are:`);
    for (const n of cannot) out(`  ${shown(n.path)}: ${said(n.reason)}`);
  }
  if (gaps.length) {
    out(`\nNot recorded after this point (${gaps.length}) — a rewind cannot restore what it never saw:`);
    for (const n of gaps) {
      const by = n.tool ? `, ${shown(n.tool)}${n.call ? ` ${shown(n.call)}` : ''}` : '';
      out(`  ${n.path ? shown(n.path) : '(no file named)'}: ${said(n.reason)} (${iso(n.time)}${by})`);
    }
  }
}

/**
 * Files a scoped rewind leaves that a whole rewind would write, one plain line each, and the ways
 * to take them too: the whole rewind, or the file alone from a point.
 */
export function printLeftAlone(plan: Plan): void {
  if (plan.leftAlone.length === 0) return;
  out(`\nLeft alone (${plan.leftAlone.length}) — this rewind does not change them:`);
  for (const l of plan.leftAlone) {
    const by = l.reason === 'other-session' ? l.sessions.map((s) => `session ${shown(s)}`).join(', ') : '';
    const chosen = l.with?.length ? ` (${l.with.map(shown).join(', ')})` : '';
    out(`  left alone: ${shown(l.path)} — ${LEFT_ALONE[l.reason].short(by)}${chosen}`);
  }
  const to = targetArg(plan);
  const sessionScoped = plan.leftAlone.some((l) => l.reason === 'other-session');
  out(
    sessionScoped
      ? `  To rewind them too: agent-rewind rewind ${to}  (without --session: every session's changes)`
      : `  To rewind them too: agent-rewind rewind ${to}  (without --path), or add --path <file> for each`,
  );
  out(`  To take one file from a point: agent-rewind diff <point> now --path <file>, then agent-rewind rewind --to <point> --path <file>`);
}

/** The target as it is given on the command line. */
function targetArg(plan: Plan): string {
  return plan.target.call ? `--before-call ${plan.target.id}` : `--to ${plan.target.id}`;
}

export function refusalMessage(plan: Plan): string {
  const lines = [
    `Refused: ${plan.blocked.length + plan.uncertain.length} file(s) hold work that is not the agent's, or a state this point cannot vouch for, and rewinding would overwrite it:`,
    ...plan.blocked.map((b) => blockedLine(b, plan)),
    ...plan.uncertain.map(uncertainLine),
    ...(plan.uncommitted.length ? [`  (uncommitted in git: ${plan.uncommitted.map(shown).join(', ')})`] : []),
    // Saving or committing does not lift this refusal: the check compares the disk with what was
    // recorded, so only ways that act on that are offered.
    'Nothing was written. Three ways out:',
    `  1. Keep your version aside: copy those files somewhere outside the workspace, then: agent-rewind rewind ${targetArg(plan)} --force`,
    `  2. Rewind anyway: agent-rewind rewind ${targetArg(plan)} --force  (their current content is copied into the store first; the rewind prints the command that undoes it, \`agent-rewind rewind --to <its rewind checkpoint>\`, which brings your version back).`,
    `  3. Look first: agent-rewind plan ${targetArg(plan)}  (and pick an earlier or later point, or --path for only some files)`,
    ...keepMineWayOut(plan, targetArg(plan)),
    '  (Saving or committing your changes does not lift this: they are still not what the agent wrote.)',
  ];
  return lines.join('\n');
}
