// Plans and applies file rewinds for the extension, exactly as the CLI records them (same core,
// same store, same order), but writing through one WorkspaceEdit so open editors, undo stacks and
// file watchers see ordinary file changes. Unsaved editors on affected files refuse the rewind.
import { clockTime } from '../../shared/time';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Change, NotUndone } from '../../core/timeline/changeSet';
import { applyRewind, type RewindOutcome } from '../../core/rewind/apply';
import { uncommittedPathsAsync } from '../../core/git/status';
import { makePlan } from '../../core/rewind/plan';
import type { EditOrigin } from '../../core/rewind/safety';
import type { Store } from '../../core/store';
import { type EditWords, yourEditWords } from '../../shared/reasons';
import { type Conflict, lineText } from '../../core/rewind/lineMerge';
import {
  HUNK_LINES_SHOWN,
  type PreviewConflict,
  type PreviewHunk,
  type PreviewModel,
  type PreviewProblem,
  type Scope,
} from '../../shared/messages';
import { hunkChoiceOf } from '../../core/rewind/shape';
import type { Cancellation, WorkerClient } from '../offHost/workerClient';
import type { PlainPlan, WorkerPlanOptions } from '../offHost/protocol';
import type { TimelineModel } from '../model/timelineModel';
import { dirtyAmong } from '../model/unsavedEditors';
import { editorGate, workspaceEditWriter } from './workspaceEditWriter';

export type ApplyOutcome = RewindOutcome;

export interface RewindRequest extends WorkerPlanOptions {
  force?: boolean;
  /** Merge the files the user changed since the agent left them, where that is clean (three-way, "keep mine"). */
  keepMine?: boolean;
  /** Write only these hunks (ids of the plan's hunks) of these files, by absolute path: no other file. */
  hunks?: ReadonlyMap<string, readonly string[]>;
  /** The plan the user was shown (its `seen`, for the paths this rewind covers): a rewind whose plan differs writes nothing. */
  expect?: ReadonlyMap<string, string>;
}

/** A time of day for the preview, the one way every surface writes one (shared/time.ts). */
const clock = (t: number): string => clockTime(t);

function editWords(e: EditOrigin): EditWords {
  return {
    how: e.how,
    since: clock(e.since),
    ...(e.restored ? { restored: { time: clock(e.restored.time), undo: e.restored.undo } } : {}),
  };
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export { dirtyAmong };

/** How the preview names a call not undone: its id (a record without one: its tool and time). */
export function callKey(n: NotUndone): string {
  return n.call ?? `${n.tool}@${n.time}`;
}

/** The files a plan would write that have unsaved changes in an editor: what stops its rewind ("unsaved"). */
export function unsavedToWrite(plan: Pick<PlainPlan, 'files'>): string[] {
  return dirtyAmong(plan.files.map((f) => f.path));
}

export class RewindService {
  constructor(
    private readonly store: Store,
    private readonly model: TimelineModel,
    /** The plan worker (off the extension host); without it, or when it fails, plans run here. */
    private readonly planner?: WorkerClient,
  ) {}

  /**
   * The dry run, in the plan worker when there is one (`token` cancels it, and so does a newer plan
   * with the same `supersede` key: a worker-cancelled error). The rewind itself plans again under the lock.
   */
  plan(targetId: string, req: WorkerPlanOptions = {}, token?: Cancellation, supersede?: string): Promise<PlainPlan> {
    if (!this.planner) return this.planHere(targetId, req);
    return this.planner.plan(this.store.dir, targetId, req, () => this.planHere(targetId, req), token, supersede);
  }

  /**
   * The dry run on the extension host over the records the model has read (only appended lines are
   * read on each store change), not a fresh parse of the whole log; git is asked without blocking
   * the host (the core's makePlan would wait on it).
   */
  async planHere(targetId: string, req: WorkerPlanOptions = {}): Promise<PlainPlan> {
    const { records: _records, ...plan } = makePlan(this.store, targetId, { records: this.model.all, ...req, noGit: true });
    return { ...plan, uncommitted: req.noGit ? [] : await uncommittedPathsAsync(plan.changes.map((c) => c.path)) };
  }

  /** The preview webview's model for a plan (the scope part is filled in by the caller). */
  previewModel(
    plan: PlainPlan,
    scope: PreviewModel['scope'],
    conversation: PreviewModel['conversation'],
    onlySession: string | null,
  ): PreviewModel {
    const rel = (p: string) => this.model.relative(p);
    const problem = (path: string, reason: string, detail?: string): PreviewProblem => ({
      path,
      rel: rel(path),
      reason,
      ...(detail ? { detail } : {}),
    });
    const t = plan.target;
    const changeOf = new Map(plan.changes.map((c) => [c.path, c]));
    return {
      target: {
        id: t.id,
        // The checkpoint's one label (a rewind's from its target), as its row in the Files view says it.
        label: t.checkpoint ? this.model.label(t.checkpoint) : t.label,
        kind: t.kind,
        time: new Date(t.time).toISOString(),
        ...(t.call
          ? {
              step: {
                step: t.call.step,
                of: t.call.of,
                tool: t.call.tool,
                summary: path.isAbsolute(t.call.summary) ? rel(t.call.summary) : t.call.summary,
              },
            }
          : {}),
      },
      notUndone: plan.notUndone.map((n) => ({
        call: callKey(n),
        tool: n.tool,
        summary: n.summary,
        effect: n.effect,
        severity: n.severity,
        ...(n.compensation ? { compensation: n.compensation } : {}),
        time: new Date(n.time).toISOString(),
      })),
      files: plan.files.map((f) => {
        const hunks = this.previewHunks(plan, f, changeOf.get(f.path));
        return {
          path: f.path,
          rel: rel(f.path),
          action: f.action,
          insertions: f.insertions,
          deletions: f.deletions,
          ...(f.binary ? { binary: true } : {}),
          ...(f.approximate ? { approximate: true } : {}),
          sessions: f.sessions,
          ...(hunks ? { hunks } : {}),
        };
      }),
      notRestorable: plan.notRestorable.map((n) => problem(n.path, n.reason)),
      // Uncertain paths stop the rewind like blocked ones, and "Rewind anyway" lets them through.
      blocked: [
        ...plan.blocked.map((b) => {
          const m = plan.merges.get(b.path);
          return {
            ...problem(b.path, b.reason, b.edit ? capitalise(yourEditWords(editWords(b.edit), vscode.l10n)) + '.' : undefined),
            ...(m && m.merge !== 'never' ? { merge: m.merge } : {}),
            ...(m?.merge === 'conflict' ? { conflicts: m.conflicts.map(previewConflict) } : {}),
          };
        }),
        ...plan.uncertain.map((u) =>
          problem(u.path, u.reason, vscode.l10n.t('Recorded at {0}; found different at {1}.', clock(u.recorded.time), clock(u.found.time))),
        ),
      ],
      warnings: plan.warnings.map((w) =>
        problem(
          w.path,
          w.reason,
          w.edit
            ? capitalise(yourEditWords(editWords(w.edit), vscode.l10n)) + '.'
            : w.since !== undefined
              ? vscode.l10n.t('First seen at {0}.', clock(w.since))
              : undefined,
        ),
      ),
      dirty: unsavedToWrite(plan).map((p) => problem(p, 'unsaved')),
      uncommitted: plan.uncommitted,
      sessions: plan.sessions,
      leftAlone: plan.leftAlone.map((l) => ({
        path: l.path,
        rel: rel(l.path),
        reason: l.reason,
        sessions: l.sessions,
        ...(l.with ? { with: l.with.map(rel) } : {}),
      })),
      scope,
      conversation,
      onlySession,
    };
  }

  /** A file's hunks with their lines, as the core gives them (hunkChoiceOf); undefined when it has none to choose. */
  private previewHunks(plan: PlainPlan, f: PlainPlan['files'][number], c: Change | undefined): PreviewHunk[] | undefined {
    if (!f.hunks?.length || !c) return undefined;
    const choice = hunkChoiceOf(this.store, c, plan.bytes?.get(f.path), plan.merges.get(f.path));
    if (!choice) return undefined;
    const mine = new Set(choice.touchingMine);
    return f.hunks.map((h) => {
      const lines = choice.lines.get(h.id) ?? { minus: [], plus: [] };
      const more = Math.max(0, lines.minus.length - HUNK_LINES_SHOWN) + Math.max(0, lines.plus.length - HUNK_LINES_SHOWN);
      return {
        id: h.id,
        from: h.from,
        plus: h.plus,
        minus: h.minus,
        minusLines: lines.minus.slice(0, HUNK_LINES_SHOWN),
        plusLines: lines.plus.slice(0, HUNK_LINES_SHOWN),
        more,
        ...(mine.has(h.id) ? { touchesMine: true } : {}),
      };
    });
  }

  /**
   * Applies a file rewind through the one core apply loop, written by a WorkspaceEdit; editors
   * with unsaved changes on affected files veto it (checked under the store lock).
   */
  async apply(targetId: string, req: RewindRequest = {}): Promise<ApplyOutcome> {
    try {
      // Checked under the store lock before anything is recorded, and again at the moment of writing.
      const gate = editorGate((paths) => dirtyAmong(paths));
      // Chosen hunks narrow the rewind to their files (and any chosen whole), as the CLI's --hunks does.
      const paths = req.hunks?.size ? [...new Set([...(req.paths ?? []), ...req.hunks.keys()])] : req.paths;
      return await applyRewind(
        this.store,
        targetId,
        { ...req, ...(paths ? { paths } : {}), veto: gate.veto },
        workspaceEditWriter(this.store, gate),
      );
    } finally {
      this.model.reload();
    }
  }
}

/** A merge conflict as the preview shows it: each side's lines as text, cut at HUNK_LINES_SHOWN each. */
function previewConflict(c: Conflict): PreviewConflict {
  const side = (l: readonly string[]) => l.slice(0, HUNK_LINES_SHOWN).map(lineText);
  const cut = (l: readonly string[]) => Math.max(0, l.length - HUNK_LINES_SHOWN);
  return {
    from: c.from,
    target: c.target,
    base: c.base,
    lines: { mine: side(c.lines.mine), target: side(c.lines.target), base: side(c.lines.base) },
    more: cut(c.lines.mine) + cut(c.lines.target) + cut(c.lines.base),
  };
}

/** Compensations the user ticked, run visibly in a terminal after the files are restored. */
export function runCompensations(items: readonly NotUndone[], cwd: string | undefined): void {
  const cmds = items.map((n) => n.compensation).filter((c): c is string => !!c);
  if (!cmds.length) return;
  const term = vscode.window.createTerminal({ name: vscode.l10n.t('Agent Rewind: compensations'), ...(cwd ? { cwd } : {}) });
  term.show();
  for (const c of cmds) term.sendText(c, true);
}

export type { Scope };
