// Runs a file rewind through the busy queue and tells the user what happened: per-file failures,
// refusals with their ways out, and success with an Undo button.
import * as vscode from 'vscode';
import type { Busy } from './busy';
import { REASONS } from '../../shared/reasons';
import { oneLine } from '../../shared/text';
import type { RewindRequest, RewindService } from './rewindService';
import type { TimelineModel } from '../model/timelineModel';

export class RewindReporter {
  constructor(
    private readonly service: RewindService,
    private readonly busy: Busy,
    private readonly model: TimelineModel,
    private readonly output: vscode.OutputChannel,
  ) {}

  /** True when files were rewound (fully). */
  async applyAndReport(targetId: string, req: RewindRequest = {}): Promise<boolean> {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage('Agent Rewind does not rewind files in an untrusted workspace. Trust the workspace first.');
      return false;
    }
    // The end of an earlier attempt, left for the one in progress: switching to it, or (with paths) taking files
    // from it — not an undo. Decided before the rewind (after it, the log says the attempt is in progress again).
    const tree = this.model.attempts;
    const end = tree.ends.get(targetId);
    const attempt = end !== undefined && (req.paths?.length || (tree.current !== null && tree.current !== end)) ? end : undefined;
    const r = await this.busy.run('rewinding', () => this.service.apply(targetId, req));
    if (!r) return false;
    // A rewind to just before a tool call is named by that call (the target has no checkpoint of its own).
    const t = r.plan.target;
    const label = t.call
      ? `just before ${t.call.tool} ${t.call.summary.startsWith('/') ? this.model.relative(t.call.summary) : t.call.summary}`
      : (this.model.find(targetId)?.label ?? t.label);
    // An undo is a rewind to a rewind's checkpoint: worded as an undo (and a redo as a redo).
    const meaning = t.call
      ? { action: 'rewind' as const, point: `the moment ${oneLine(label, 80)} (step ${t.call.step} of ${t.call.of})` }
      : this.model.meaning(targetId);
    // The checkpoint of such a take: going back to it undoes the take.
    const target = this.model.find(targetId)?.checkpoint;
    const undoTake = target?.partial ? this.model.attemptTaken(target) : undefined;
    switch (r.status) {
      case 'vetoed': {
        const pick = await vscode.window.showWarningMessage(
          `Rewind refused: ${r.paths.length} affected file(s) have unsaved changes (${r.paths.map((p) => this.model.relative(p)).join(', ')}). Nothing was written. After saving, they are changes outside the agent: the rewind then offers Rewind Anyway, which keeps a copy.`,
          'Save All and Rewind',
        );
        if (pick === 'Save All and Rewind') {
          await vscode.workspace.saveAll(false);
          return this.applyAndReport(targetId, req);
        }
        return false;
      }
      case 'refused': {
        const held = [...r.plan.blocked, ...r.plan.uncertain];
        const files = held.map((b) => `${this.model.relative(b.path)} (${REASONS[b.reason].short})`).join(', ');
        const pick = await vscode.window.showWarningMessage(
          `Rewind refused: ${held.length} file(s) hold work that is not the agent's, or a state this point cannot vouch for: ${files}. Nothing was written.`,
          {
            detail:
              'Saving or committing does not lift this. Rewind anyway: their current content is copied into the store first, so Undo brings it back.',
          },
          'Rewind Anyway',
          'Preview',
        );
        if (pick === 'Rewind Anyway') return this.applyAndReport(targetId, { ...req, force: true });
        if (pick === 'Preview') await vscode.commands.executeCommand('agentRewind.previewRewind', targetId);
        return false;
      }
      case 'blocked-io':
        void vscode.window.showErrorMessage(
          `Nothing was rewound: ${r.problems.map((p) => `${this.model.relative(p.path)}: ${p.error}`).join('; ')}. Fix the permissions and try again.`,
        );
        return false;
      case 'nothing':
        void vscode.window.showInformationMessage(`Nothing to rewind: the recorded files already match ${meaning.point}.`);
        return false;
      case 'done':
      case 'partial': {
        const ok = r.files.filter((f) => f.ok).length;
        this.output.appendLine(
          `[${new Date().toISOString()}] Rewind to ${targetId} ("${oneLine(label, 80)}"): ${ok}/${r.files.length} files verified. Undo checkpoint ${r.checkpoint.id}.`,
        );
        for (const f of r.files)
          this.output.appendLine(`  ${f.ok ? 'ok    ' : 'FAILED'} ${f.action.padEnd(8)} ${f.path}${f.error ? ` — ${f.error}` : ''}`);
        // The way back from this rewind: rewinding to the checkpoint it just took.
        const back = meaning.action === 'undo' && attempt === undefined && undoTake === undefined ? 'Redo' : 'Undo';
        const goBack = async () => {
          await this.applyAndReport(r.checkpoint.id);
        };
        const n = `${r.files.length} file${r.files.length === 1 ? '' : 's'}`;
        const what =
          undoTake !== undefined
            ? `Undid taking files from Attempt ${undoTake}: ${n} put back`
            : attempt !== undefined
              ? req.paths?.length
                ? `Took ${n} from Attempt ${attempt}`
                : `Switched to Attempt ${attempt}: ${n} changed`
              : meaning.action === 'undo'
                ? `Undid the rewind to ${meaning.point}: ${n} put back`
                : meaning.action === 'redo'
                  ? `Redid the rewind to ${meaning.point}: ${n} rewound again`
                  : `Rewound ${n} to ${meaning.point}`;
        this.output.appendLine(`  ${what}.`);
        if (r.status === 'done') {
          void vscode.window
            .showInformationMessage(`${what}; every file verified.`, back, 'Show Details')
            .then((pick) => (pick === back ? goBack() : pick === 'Show Details' ? this.output.show(true) : undefined));
        } else {
          void vscode.window
            .showErrorMessage(
              `${what}, but ${r.files.length - ok} of them could not be written (see details). ${back} restores everything as it was.`,
              'Show Details',
              back,
            )
            .then((pick) => (pick === back ? goBack() : pick === 'Show Details' ? this.output.show(true) : undefined));
        }
        return r.status === 'done';
      }
    }
  }
}
