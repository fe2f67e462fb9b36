// Plans and applies file rewinds for the extension, exactly as the CLI records them (same core,
// same store, same order), but writing through one WorkspaceEdit so open editors, undo stacks and
// file watchers see ordinary file changes. Unsaved editors on affected files refuse the rewind.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { NotUndone } from '../core/plan';
import { applyWriteFs, beginRewind, type FileResult, makePlan, type Plan, type PlanOptions, removeEmptiedDirs, type Write } from '../core/rewind';
import type { Store } from '../core/store';
import type { PreviewModel, PreviewProblem, Scope } from '../shared/messages';
import type { TimelineModel } from './timelineModel';

export type ApplyOutcome =
  | { status: 'dirty'; dirty: string[] }
  | { status: 'refused'; plan: Plan }
  | { status: 'blocked-io'; problems: { path: string; error: string }[] }
  | { status: 'nothing'; plan: Plan }
  | { status: 'done' | 'partial'; plan: Plan; checkpoint: string; files: FileResult[] };

export interface RewindRequest extends PlanOptions {
  force?: boolean;
}

/** Paths of open editors with unsaved changes among `paths`. */
export function dirtyAmong(paths: Iterable<string>): string[] {
  const wanted = new Set(paths);
  return vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file' && wanted.has(d.uri.fsPath)).map((d) => d.uri.fsPath);
}

export class RewindService {
  constructor(private readonly store: Store, private readonly model: TimelineModel) {}

  plan(targetId: string, req: PlanOptions = {}): Plan {
    return makePlan(this.store, targetId, req);
  }

  /** The preview webview's model for a plan (the scope part is filled in by the caller). */
  previewModel(plan: Plan, scope: PreviewModel['scope'], conversation: PreviewModel['conversation'], onlySession: string | null): PreviewModel {
    const rel = (p: string) => this.model.relative(p);
    const problem = (path: string, reason: string): PreviewProblem => ({ path, rel: rel(path), reason });
    const t = plan.target;
    return {
      target: { id: t.id, label: t.label, kind: t.kind, time: new Date(t.time).toISOString() },
      notUndone: plan.notUndone.map((n, index) => ({
        index,
        tool: n.tool,
        summary: n.summary,
        effect: n.effect,
        severity: n.severity,
        ...(n.compensation ? { compensation: n.compensation } : {}),
        time: new Date(n.time).toISOString(),
      })),
      files: plan.files.map((f) => ({
        path: f.path,
        rel: rel(f.path),
        action: f.action,
        insertions: f.insertions,
        deletions: f.deletions,
        ...(f.binary ? { binary: true } : {}),
        ...(f.approximate ? { approximate: true } : {}),
        sessions: f.sessions,
      })),
      notRestorable: plan.notRestorable.map((n) => problem(n.path, n.reason)),
      blocked: plan.blocked.map((b) => problem(b.path, b.reason)),
      warnings: plan.warnings.map((w) => problem(w.path, w.reason)),
      dirty: dirtyAmong(plan.files.map((f) => f.path)).map((p) => problem(p, 'unsaved')),
      uncommitted: plan.uncommitted,
      sessions: plan.sessions,
      conflicts: plan.conflicts.map((c) => ({ path: c.path, rel: rel(c.path), sessions: c.sessions })),
      scope,
      conversation,
      onlySession,
    };
  }

  /**
   * Applies a file rewind: dirty check, safety check, pre-rewind records, one WorkspaceEdit,
   * verification by re-hashing, rewind records. Symlinks are written directly (a WorkspaceEdit
   * cannot create one).
   */
  async apply(targetId: string, req: RewindRequest = {}): Promise<ApplyOutcome> {
    const probe = makePlan(this.store, targetId, { ...req, noStats: true, noGit: true });
    const dirty = dirtyAmong(probe.changes.map((c) => c.path));
    if (dirty.length) return { status: 'dirty', dirty };
    const begun = beginRewind(this.store, targetId, req);
    if (begun.status === 'refused' || begun.status === 'nothing') return begun;
    if (begun.status === 'blocked-io') return { status: 'blocked-io', problems: begun.problems };
    const { txn } = begun;
    const errors = new Map<string, string>();
    let finished = false;
    try {
      const edit = new vscode.WorkspaceEdit();
      const direct: Write[] = [];
      const viaEdit: Write[] = [];
      for (const w of txn.writes) {
        if (!txn.unchanged(w)) {
          errors.set(w.path, 'changed while the rewind ran; left as it is');
          continue;
        }
        const uri = vscode.Uri.file(w.path);
        if (w.link || (w.to !== null && fs.existsSync(w.path) && fs.lstatSync(w.path).isSymbolicLink())) direct.push(w);
        else if (w.to === null) {
          edit.deleteFile(uri, { ignoreIfNotExists: true });
          viaEdit.push(w);
        } else {
          edit.createFile(uri, { overwrite: true, contents: this.store.content(w.to) });
          viaEdit.push(w);
        }
      }
      if (viaEdit.length) {
        const ok = await vscode.workspace.applyEdit(edit, { isRefactoring: false });
        if (!ok) for (const w of viaEdit) errors.set(w.path, 'VS Code did not apply the edit');
      }
      for (const w of viaEdit) {
        if (errors.has(w.path)) continue;
        // What a WorkspaceEdit cannot express: the mode of a recreated file (folders: below).
        try {
          if (w.to !== null && w.mode !== undefined) fs.chmodSync(w.path, w.mode);
        } catch {
          /* reported by the hash check if it matters */
        }
      }
      for (const w of direct) {
        try {
          applyWriteFs(this.store, w);
        } catch (e) {
          errors.set(w.path, (e as Error).message);
        }
      }
      removeEmptiedDirs(txn.writes.filter((w) => !errors.has(w.path)));
      const files = txn.finish(errors);
      finished = true;
      return { status: files.every((f) => f.ok) ? 'done' : 'partial', plan: txn.plan, checkpoint: txn.checkpoint.id, files };
    } finally {
      if (!finished) txn.finish(errors.size ? errors : new Map([['', 'interrupted']]));
      this.model.reload();
    }
  }
}

/** Compensations the user ticked, run visibly in a terminal after the files are restored. */
export function runCompensations(items: readonly NotUndone[], cwd: string | undefined): void {
  const cmds = items.map((n) => n.compensation).filter((c): c is string => !!c);
  if (!cmds.length) return;
  const term = vscode.window.createTerminal({ name: 'Agent Rewind: compensations', ...(cwd ? { cwd } : {}) });
  term.show();
  for (const c of cmds) term.sendText(c, true);
}

export type { Scope };
