// The commands on one step (tool call) of the Conversation view: rewind files to just before it
// (the same preview as any rewind, target `before:<call id>`), a diff of what the step itself did
// to a file, and restoring one file to before the step. Restoring one file shares the confirmation
// and the safety-checked apply of "Restore This File Only" (restoreOne).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SpanChange } from '../../core/timeline/timeline';
import { oneLine } from '../../shared/text';
import { CMD } from '../commandIds';
import type { CommandDeps } from './commandDeps';
import type { ConvPrompt, ConvSession, ConvTool } from '../model/conversationModel';
import { type ConvElement, StepFileNode } from '../views/conversationView';
import { relativeTime } from '../views/relativeTime';
import { snapshotUri } from '../views/snapshotContent';
import type { StepPlace } from '../model/stepIndex';

type ToolEl = Extract<ConvElement, { kind: 'tool' }>;
type StepFileEl = Extract<ConvElement, { kind: 'stepFile' }>;

/** "step 2 of 3 (Write src/a.ts)": how the UI names the moment just before a call. */
export function stepWords(p: StepPlace, relative: (p: string) => string): string {
  const summary = path.isAbsolute(p.summary) ? relative(p.summary) : p.summary;
  return vscode.l10n.t('step {0} of {1} ({2})', p.step, p.of, `${p.tool} ${oneLine(summary, 60)}`);
}

/**
 * Restores one file to `target` (a checkpoint id or `before:<call id>`) after a modal confirmation,
 * through the reporter: the same safety check, refusal and Undo as every rewind.
 */
export async function restoreOne(d: CommandDeps, target: string, file: string, where: string): Promise<void> {
  const plan = await d.service.plan(target, { paths: [file], noGit: true });
  if (plan.files.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        '{0} already matches {1}{2}.',
        d.model.relative(file),
        where,
        plan.notRestorable.length ? `, or cannot be restored (${plan.notRestorable[0]!.reason})` : '',
      ),
    );
    return;
  }
  const f = plan.files[0]!;
  const restore = vscode.l10n.t('Restore');
  const ok = await vscode.window.showWarningMessage(
    vscode.l10n.t('Restore {0} to how it was {1}?', d.model.relative(file), where),
    {
      modal: true,
      detail: vscode.l10n.t(
        '{0} Only this file changes; Undo brings it back.',
        f.action === 'delete'
          ? vscode.l10n.t('The file did not exist then: it will be deleted.')
          : f.action === 'recreate'
            ? vscode.l10n.t('The file will be recreated.')
            : vscode.l10n.t('+{0} −{1} lines.', f.insertions, f.deletions),
      ),
    },
    restore,
  );
  if (ok === restore) await d.reporter.applyAndReport(target, { paths: [file] });
}

interface StepPick {
  session: ConvSession;
  prompt: ConvPrompt;
  tool: ConvTool;
  place: StepPlace;
}

/** Every recorded step of every session, newest prompt first, for the palette. */
async function pickStep(d: CommandDeps, placeHolder: string, withFiles: boolean): Promise<StepPick | undefined> {
  const all: StepPick[] = [];
  const walk = (sessions: readonly ConvSession[]) => {
    for (const session of sessions) {
      for (const prompt of session.prompts)
        for (const tool of prompt.tools) {
          const place = tool.id ? d.steps.place(tool.id) : undefined;
          if (place && (!withFiles || d.steps.changes(tool.id).length)) all.push({ session, prompt, tool, place });
        }
      walk(session.forks);
    }
  };
  walk(d.conversation.all);
  if (!all.length) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No recorded tool calls yet.'));
    return undefined;
  }
  const items = all.reverse().map((s) => ({
    label: `${s.tool.name}: ${oneLine(path.isAbsolute(s.tool.summary) ? d.model.relative(s.tool.summary) : s.tool.summary, 70)}`,
    description: `${vscode.l10n.t('step {0} of {1}', s.place.step, s.place.of)} · ${relativeTime(s.prompt.time)} · ${oneLine(s.prompt.text, 40)}`,
    pick: s,
  }));
  return (await vscode.window.showQuickPick(items, { placeHolder, matchOnDescription: true }))?.pick;
}

export function stepHandlers(d: CommandDeps) {
  return {
    [CMD.rewindFilesBeforeStep]: async (arg: unknown) => {
      const el = arg as ToolEl | undefined;
      const id =
        el?.kind === 'tool' ? el.tool.id : (await pickStep(d, vscode.l10n.t('Rewind files to just before which step?'), false))?.tool.id;
      if (!id) return;
      const place = d.steps.place(id);
      if (!place) {
        void vscode.window.showInformationMessage(
          vscode.l10n.t('This tool call was not recorded (the hooks were not connected then): there is no point to go back to.'),
        );
        return;
      }
      d.preview.show({ targetId: place.target, scope: 'files' });
    },
    [CMD.openStepFileDiff]: async (arg: unknown) => {
      const el = arg as StepFileEl | undefined;
      if (el?.kind !== 'stepFile') return;
      await openStepDiff(d, el.callId, el.change);
    },
    [CMD.restoreFileBeforeStep]: async (arg: unknown) => {
      let el = arg as StepFileEl | undefined;
      if (el?.kind !== 'stepFile') {
        const step = await pickStep(d, vscode.l10n.t('Restore a file to how it was before which step?'), true);
        if (!step) return;
        const changes = d.steps.changes(step.tool.id);
        const change =
          changes.length === 1
            ? changes[0]
            : (
                await vscode.window.showQuickPick(
                  changes.map((c) => ({ label: d.model.relative(c.path), c })),
                  { placeHolder: vscode.l10n.t('Which file?') },
                )
              )?.c;
        if (!change) return;
        el = new StepFileNode(step.prompt, step.tool, step.tool.id!, change);
      }
      const place = d.steps.place(el.callId);
      if (!place) return;
      await restoreOne(
        d,
        place.target,
        el.change.path,
        vscode.l10n.t(
          'before {0}',
          stepWords(place, (p) => d.model.relative(p)),
        ),
      );
    },
  };
}

/** The native diff of what one step did to one file: its content just before the call ↔ just after. */
async function openStepDiff(d: CommandDeps, callId: string, c: SpanChange): Promise<void> {
  const place = d.steps.place(callId);
  const left = snapshotUri(c.path, c.from && !c.from.skipped ? c.from.hash : null, 'before-step');
  const right = snapshotUri(c.path, c.to.skipped ? null : c.to.hash, 'after-step');
  const step = place ? ` step ${place.step} of ${place.of}` : '';
  await vscode.commands.executeCommand('vscode.diff', left, right, `${path.basename(c.path)} (before ↔ after${step})`, { preview: true });
}
