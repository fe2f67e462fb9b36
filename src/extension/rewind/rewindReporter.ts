// Runs a file rewind through the busy queue and tells the user what happened: per-file failures,
// refusals with their ways out, and success with an Undo button.
import * as vscode from 'vscode';
import type { Busy } from './busy';
import type { LeftAlone } from '../../core/timeline/changeSet';
import { countWords } from '../../shared/l10n';
import { reasonTable } from '../../shared/reasons';
import { oneLine } from '../../shared/text';
import type { RewindRequest, RewindService } from './rewindService';
import type { StalePath } from '../../core/rewind/transaction';
import type { TimelineModel } from '../model/timelineModel';

/** What a rewind came to, of one status. */
type Outcome<S extends string> = Extract<NonNullable<Awaited<ReturnType<RewindService['apply']>>>, { status: S }>;

export class RewindReporter {
  constructor(
    private readonly service: RewindService,
    private readonly busy: Busy,
    private readonly model: TimelineModel,
    private readonly output: vscode.LogOutputChannel,
  ) {}

  /**
   * True when files were rewound (fully). `onStale`: the caller showed a plan (`req.expect`) that is no longer
   * the one under the lock — nothing was written, and the caller shows the new one.
   */
  async applyAndReport(
    targetId: string,
    req: RewindRequest = {},
    how: { onStale?: (changed: StalePath[]) => void } = {},
  ): Promise<boolean> {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('Agent Rewind does not rewind files in an untrusted workspace. Trust the workspace first.'),
      );
      return false;
    }
    // The end of an earlier attempt, left for the one in progress: switching to it, or (with paths) taking files
    // from it — not an undo. Decided before the rewind (after it, the log says the attempt is in progress again).
    const tree = this.model.attempts;
    const end = tree.ends.get(targetId);
    const attempt = end !== undefined && (req.paths?.length || (tree.current !== null && tree.current !== end)) ? end : undefined;
    const r = await this.busy.run(vscode.l10n.t('rewinding'), () => this.service.apply(targetId, req));
    if (!r) return false;
    // A rewind to just before a tool call is named by that call (the target has no checkpoint of its own).
    const t = r.plan.target;
    const label = t.call
      ? vscode.l10n.t(
          'just before {0}',
          `${t.call.tool} ${t.call.summary.startsWith('/') ? this.model.relative(t.call.summary) : t.call.summary}`,
        )
      : (this.model.find(targetId)?.label ?? t.label);
    // An undo is a rewind to a rewind's checkpoint: worded as an undo (and a redo as a redo).
    const meaning = t.call
      ? {
          action: 'rewind' as const,
          point: vscode.l10n.t('the moment {0} (step {1} of {2})', oneLine(label, 80), t.call.step, t.call.of),
        }
      : this.model.meaning(targetId);
    // The checkpoint of such a take: going back to it undoes the take.
    const target = this.model.find(targetId)?.checkpoint;
    const undoTake = target?.partial ? this.model.attemptTaken(target) : undefined;
    switch (r.status) {
      case 'vetoed':
        return this.onVetoed(r, targetId, req);
      case 'refused':
        return this.onRefused(r, targetId, req);
      case 'stale':
        if (how.onStale) how.onStale(r.changed);
        else
          void vscode.window.showWarningMessage(
            vscode.l10n.t(
              'Nothing was rewound: {0} changed after the plan was made. Look at the plan again and rewind.',
              r.changed.map((c) => this.model.relative(c.path)).join(', '),
            ),
          );
        return false;
      case 'blocked-io':
        void vscode.window.showErrorMessage(
          vscode.l10n.t(
            'Nothing was rewound: {0}. Fix the permissions and try again.',
            r.problems.map((p) => `${this.model.relative(p.path)}: ${p.error}`).join('; '),
          ),
        );
        return false;
      case 'nothing':
        void vscode.window.showInformationMessage(
          r.plan.leftAlone.length
            ? vscode.l10n.t(
                'Nothing rewound: every file this selection would change is left alone. {0}',
                this.leftAloneWords(r.plan.leftAlone),
              )
            : vscode.l10n.t('Nothing to rewind: the recorded files already match {0}.', meaning.point),
        );
        return false;
      case 'done':
      case 'partial': {
        // Counted as they came out: written and verified, failed, or left as the user saved them meanwhile.
        const ok = r.files.filter((f) => f.ok).length;
        const skipped = r.files.filter((f) => f.skipped).length;
        const failed = r.files.length - ok - skipped;
        this.output.info(
          `Rewind to ${targetId} ("${oneLine(label, 80)}"): ${ok}/${r.files.length} files verified, ${failed} failed, ${skipped} left as saved. Undo checkpoint ${r.checkpoint.id}.`,
        );
        for (const f of r.files) {
          const line = `  ${f.ok ? 'ok    ' : f.skipped ? 'left  ' : 'FAILED'} ${f.action.padEnd(8)} ${f.path}${f.error ? ` — ${f.error}` : ''}`;
          if (f.ok) this.output.info(line);
          else if (f.skipped) this.output.warn(line);
          else this.output.error(line);
        }
        // The way back from this rewind: rewinding to the checkpoint it just took.
        const back =
          meaning.action === 'undo' && attempt === undefined && undoTake === undefined ? vscode.l10n.t('Redo') : vscode.l10n.t('Undo');
        const showDetails = vscode.l10n.t('Show Details');
        const goBack = async () => {
          await this.applyAndReport(r.checkpoint.id);
        };
        const what = doneWords(ok, meaning, { attempt, undoTake, took: !!req.paths?.length });
        this.output.info(`  ${what}.`);
        for (const l of r.plan.leftAlone) this.output.info(`  left alone ${l.path} — ${this.leftAloneLine(l)}`);
        const saved = skipped
          ? ` ${vscode.l10n.t(
              '{0} changed while the rewind ran and left as saved (a copy is in the store).',
              countWords(skipped, vscode.l10n.t('1 file'), vscode.l10n.t('{0} files', skipped)),
            )}`
          : '';
        const left = (r.plan.leftAlone.length ? ` ${this.leftAloneWords(r.plan.leftAlone)}` : '') + saved;
        if (r.status === 'done') {
          void vscode.window
            .showInformationMessage(vscode.l10n.t('{0}; every file verified.{1}', what, left), back, showDetails)
            .then((pick) => (pick === back ? goBack() : pick === showDetails ? this.output.show(true) : undefined));
        } else if (failed === 0) {
          void vscode.window
            .showWarningMessage(vscode.l10n.t('{0}; every file written verified.{1}', what, left), back, showDetails)
            .then((pick) => (pick === back ? goBack() : pick === showDetails ? this.output.show(true) : undefined));
        } else {
          void vscode.window
            .showErrorMessage(
              vscode.l10n.t(
                '{0}, but {1} could not be written (see details). {2} restores everything as it was.{3}',
                what,
                countWords(failed, vscode.l10n.t('1 file'), vscode.l10n.t('{0} files', failed)),
                back,
                left,
              ),
              showDetails,
              back,
            )
            .then((pick) => (pick === back ? goBack() : pick === showDetails ? this.output.show(true) : undefined));
        }
        return r.status === 'done';
      }
    }
  }

  /** Unsaved editors stopped the rewind before anything was written: offer to save them all and rewind. */
  private async onVetoed(r: Outcome<'vetoed'>, targetId: string, req: RewindRequest): Promise<boolean> {
    const saveAllAndRewind = vscode.l10n.t('Save All and Rewind');
    const pick = await vscode.window.showWarningMessage(
      vscode.l10n.t(
        'Rewind refused: {0} affected file(s) have unsaved changes ({1}). Nothing was written. After saving, they are changes outside the agent: the rewind then offers Rewind Anyway, which keeps a copy.',
        r.paths.length,
        r.paths.map((p) => this.model.relative(p)).join(', '),
      ),
      saveAllAndRewind,
    );
    if (pick === saveAllAndRewind) {
      await vscode.workspace.saveAll(false);
      return this.applyAndReport(targetId, req);
    }
    return false;
  }

  /** Files hold work that is not the agent's: nothing was written; offer to rewind anyway, or the preview. */
  private async onRefused(r: Outcome<'refused'>, targetId: string, req: RewindRequest): Promise<boolean> {
    const held = [...r.plan.blocked, ...r.plan.uncertain];
    const reasons = reasonTable(vscode.l10n);
    const files = held.map((b) => `${this.model.relative(b.path)} (${reasons[b.reason].short})`).join(', ');
    const rewindAnyway = vscode.l10n.t('Rewind Anyway');
    const preview = vscode.l10n.t('Preview');
    // Keep mine: offered where a file the user changed merges cleanly (and not again once chosen).
    const keepMine = !req.keepMine && [...r.plan.merges.values()].some((m) => m.merge === 'clean') ? vscode.l10n.t('Keep Mine') : undefined;
    const pick = await vscode.window.showWarningMessage(
      vscode.l10n.t(
        "Rewind refused: {0} file(s) hold work that is not the agent's, or a state this point cannot vouch for: {1}. Nothing was written.",
        held.length,
        files,
      ),
      {
        detail: [
          vscode.l10n.t(
            'Saving or committing does not lift this. Rewind anyway: their current content is copied into the store first, so Undo brings it back.',
          ),
          ...(keepMine
            ? [
                vscode.l10n.t(
                  "Keep Mine: in the files you changed, the agent's lines are reverted and yours kept (a line-by-line merge); where your changes and the agent's touch the same lines, nothing is written.",
                ),
              ]
            : []),
        ].join('\n\n'),
      },
      ...(keepMine ? [keepMine] : []),
      rewindAnyway,
      preview,
    );
    if (keepMine && pick === keepMine) return this.applyAndReport(targetId, { ...req, keepMine: true });
    if (pick === rewindAnyway) return this.applyAndReport(targetId, { ...req, force: true });
    if (pick === preview) await vscode.commands.executeCommand('agentRewind.previewRewind', targetId);
    return false;
  }

  /** "Left alone: shared.txt (also changed by session 3f2a…). To rewind them too, rewind every session." */
  private leftAloneWords(list: readonly LeftAlone[]): string {
    const names = list.slice(0, 3).map((l) => `${this.model.relative(l.path)} (${this.leftAloneLine(l)})`);
    const more = list.length > 3 ? vscode.l10n.t(' and {0} more (see details)', list.length - 3) : '';
    const way = list.some((l) => l.reason === 'other-session')
      ? vscode.l10n.t('To rewind them too, rewind every session, or restore one file alone from a point.')
      : vscode.l10n.t('To rewind them too, rewind the whole point, not only the chosen files.');
    return vscode.l10n.t('Left alone: {0}{1}. {2}', names.join(', '), more, way);
  }

  private leftAloneLine(l: LeftAlone): string {
    return l.reason === 'other-session'
      ? vscode.l10n.t('also changed by {0}', l.sessions.map((s) => vscode.l10n.t('session {0}', s.slice(0, 8))).join(', '))
      : vscode.l10n.t('changed by the same call as {0}', (l.with ?? []).map((p) => this.model.relative(p)).join(', '));
  }
}

/** What a finished rewind did, in one line: "Rewound 3 files to "Add due dates"", "Undid the rewind to …: 2 files put back". */
function doneWords(
  files: number,
  meaning: { action: 'rewind' | 'undo' | 'redo'; point: string },
  how: { attempt: number | undefined; undoTake: number | undefined; took: boolean },
): string {
  const n = countWords(files, vscode.l10n.t('1 file'), vscode.l10n.t('{0} files', files));
  if (how.undoTake !== undefined) return vscode.l10n.t('Undid taking files from Attempt {0}: {1} put back', how.undoTake, n);
  if (how.attempt !== undefined)
    return how.took
      ? vscode.l10n.t('Took {0} from Attempt {1}', n, how.attempt)
      : vscode.l10n.t('Switched to Attempt {0}: {1} changed', how.attempt, n);
  if (meaning.action === 'undo') return vscode.l10n.t('Undid the rewind to {0}: {1} put back', meaning.point, n);
  if (meaning.action === 'redo') return vscode.l10n.t('Redid the rewind to {0}: {1} rewound again', meaning.point, n);
  return vscode.l10n.t('Rewound {0} to {1}', n, meaning.point);
}
