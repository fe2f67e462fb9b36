// Comparing two points of the timeline in VS Code's multi-file diff editor (`vscode.changes`), with
// both sides from the store through the read-only snapshot scheme — no temp files — and the current
// files as themselves. Points: a checkpoint, the moment before a step, the end of an attempt, or the
// current files. Attempts: switch to one (the usual preview and rewind to its end) or take files
// from one (the usual safety-checked rewind of those paths, with Undo).
import * as vscode from 'vscode';
import { type Attempt, ATTEMPT_POINT } from '../../core/timeline/attempts';
import { NOW_POINT, recordedChanges, resolvePoint, type RecordedChange } from '../../core/timeline/compare';
import type { FileState } from '../../core/timeline/timeline';
import { oneLine } from '../../shared/text';
import type { ConvElement } from '../views/conversationView';
import { checkpointLabel, type FilesElement } from '../views/filesView';
import { clockTime } from '../../shared/time';
import { promptWords } from '../../core/timeline/presentation';
import { relativeTime } from '../views/relativeTime';
import { snapshotUri } from '../views/snapshotContent';
import { CMD } from '../commandIds';
import type { CommandDeps } from './commandDeps';
import { stepWords } from './stepCommands';

/** A point as the commands pass it: what `resolvePoint` takes, and how the UI names it. */
export interface NamedPoint {
  point: string;
  name: string;
}

const current = (): NamedPoint => ({ point: NOW_POINT, name: vscode.l10n.t('Current') });

function attemptPoint(a: Attempt): NamedPoint {
  return { point: `${ATTEMPT_POINT}${a.n}`, name: vscode.l10n.t('Attempt {0}', a.n) };
}

/** "3 prompts · left 14:02" / "1 prompt · in progress": an attempt's row in a quick pick (its own work, as the Files view counts it). */
function attemptDescription(d: CommandDeps, a: Attempt): string {
  const n = d.model.attemptRow(a.n)?.prompts ?? 0;
  return `${promptWords(n, vscode.l10n)} · ${a.end ? vscode.l10n.t('left {0}', clockTime(a.end.time)) : vscode.l10n.t('in progress')}`;
}

/** The point a tree element stands for: a checkpoint row or file, an attempt, a prompt or a step of the Conversation view. */
export function pointOf(d: CommandDeps, arg: unknown): NamedPoint | undefined {
  const el = arg as FilesElement | ConvElement | undefined;
  if (!el || typeof el !== 'object') return undefined;
  switch (el.kind) {
    case 'attempt':
      return attemptPoint(el.attempt);
    case 'checkpoint':
      return { point: el.node.checkpoint.id, name: `"${checkpointLabel(el.node, 40)}"` };
    case 'file': {
      const node = d.model.find(el.checkpointId);
      return node ? { point: node.checkpoint.id, name: `"${checkpointLabel(node, 40)}"` } : undefined;
    }
    case 'prompt':
      return el.prompt.checkpointId ? { point: el.prompt.checkpointId, name: `"${oneLine(el.prompt.text, 40)}"` } : undefined;
    case 'tool': {
      const place = el.tool.id ? d.steps.place(el.tool.id) : undefined;
      return place
        ? {
            point: place.target,
            name: vscode.l10n.t(
              'before {0}',
              stepWords(place, (p) => d.model.relative(p)),
            ),
          }
        : undefined;
    }
    default:
      return undefined;
  }
}

/** Every point to compare with, attempts first, then the current files, then checkpoints newest first. */
async function pickPoint(d: CommandDeps, placeHolder: string, except?: string): Promise<NamedPoint | undefined> {
  const { attempts } = d.model.attempts;
  type Item = vscode.QuickPickItem & { p?: NamedPoint };
  const items: Item[] = [{ label: vscode.l10n.t('Attempts'), kind: vscode.QuickPickItemKind.Separator }];
  for (const a of [...attempts].reverse()) {
    const first = d.model.attemptOwnWork(a.n)?.prompts[0];
    items.push({
      label: `$(git-branch) ${vscode.l10n.t('Attempt {0}', a.n)}`,
      description: attemptDescription(d, a),
      ...(first ? { detail: oneLine(first.label, 100) } : {}),
      p: attemptPoint(a),
    });
  }
  items.push({ label: `$(file) ${vscode.l10n.t('Current files')}`, description: vscode.l10n.t('what is on disk now'), p: current() });
  items.push({ label: vscode.l10n.t('Checkpoints'), kind: vscode.QuickPickItemKind.Separator });
  for (const n of d.model.checkpoints)
    items.push({
      label: checkpointLabel(n, 80),
      description: relativeTime(n.checkpoint.time),
      p: { point: n.checkpoint.id, name: `"${checkpointLabel(n, 40)}"` },
    });
  const pick = await vscode.window.showQuickPick(
    items.filter((i) => !i.p || i.p.point !== except),
    { placeHolder, matchOnDescription: true, matchOnDetail: true },
  );
  return pick?.p;
}

/** One side of a pair: the current file itself, or the recorded content (an empty document where the file did not exist). */
function sideUri(p: string, point: string, state: FileState | undefined, label: string): vscode.Uri {
  if (point === NOW_POINT && state) return vscode.Uri.file(p);
  return snapshotUri(p, state && !state.skipped ? state.hash : null, label);
}

/** The pairs the multi-file diff editor shows: [the file, before, after] per path that differs. */
export function changePairs(changes: readonly RecordedChange[], from: NamedPoint, to: NamedPoint): [vscode.Uri, vscode.Uri, vscode.Uri][] {
  return changes.map((c) => [
    vscode.Uri.file(c.path),
    sideUri(c.path, from.point, c.from, from.name),
    sideUri(c.path, to.point, c.to, to.name),
  ]);
}

/** Opens the multi-file diff editor from `from` to `to`; returns the pairs it opened (none: it said nothing differs). */
export async function openComparison(d: CommandDeps, from: NamedPoint, to: NamedPoint): Promise<[vscode.Uri, vscode.Uri, vscode.Uri][]> {
  const records = d.model.all;
  const tree = d.model.attempts;
  const changes = recordedChanges(records, resolvePoint(records, from.point, tree), resolvePoint(records, to.point, tree));
  if (!changes.length) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No recorded file differs between {0} and {1}.', from.name, to.name));
    return [];
  }
  const pairs = changePairs(changes, from, to);
  await vscode.commands.executeCommand('vscode.changes', vscode.l10n.t('{0} ↔ {1}', from.name, to.name), pairs);
  return pairs;
}

function attemptOf(d: CommandDeps, arg: unknown): Attempt | undefined {
  const el = arg as FilesElement | undefined;
  return el?.kind === 'attempt' ? d.model.attempts.attempts[el.attempt.n - 1] : undefined;
}

/** An attempt not in progress, from the row or a quick pick. */
async function leftAttempt(d: CommandDeps, arg: unknown, placeHolder: string): Promise<Attempt | undefined> {
  const given = attemptOf(d, arg);
  if (given?.end) return given;
  const left = d.model.attempts.attempts.filter((a) => a.end).reverse();
  if (!left.length) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'There is no earlier attempt: an attempt is set aside when you rewind and then prompt again (or work on) from the earlier point.',
      ),
    );
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    left.map((a) => {
      const first = d.model.attemptOwnWork(a.n)?.prompts[0];
      return {
        label: vscode.l10n.t('Attempt {0}', a.n),
        description: attemptDescription(d, a),
        detail: first ? oneLine(first.label, 100) : undefined,
        a,
      };
    }),
    { placeHolder },
  );
  return pick?.a;
}

export function compareHandlers(d: CommandDeps) {
  return {
    [CMD.compareWithCurrent]: async (arg: unknown) => {
      const from = pointOf(d, arg) ?? (await pickPoint(d, vscode.l10n.t('Compare which point with the current files?'), NOW_POINT));
      if (from) return openComparison(d, from, current());
      return undefined;
    },
    [CMD.compareWith]: async (arg: unknown) => {
      const from = pointOf(d, arg) ?? (await pickPoint(d, vscode.l10n.t('Compare from which point?')));
      if (!from) return undefined;
      const to = await pickPoint(d, vscode.l10n.t('Compare {0} with…', from.name), from.point);
      return to ? openComparison(d, from, to) : undefined;
    },
    [CMD.switchToAttempt]: async (arg: unknown) => {
      const a = await leftAttempt(d, arg, vscode.l10n.t('Switch to which attempt?'));
      // The usual preview of a rewind to its end: the same safety check, scope and Undo as any rewind.
      if (a?.end) d.preview.show({ targetId: a.end.id, scope: 'files' });
    },
    [CMD.takeFromAttempt]: async (arg: unknown) => {
      const a = await leftAttempt(d, arg, vscode.l10n.t('Take files from which attempt?'));
      if (!a?.end) return;
      const records = d.model.all;
      const tree = d.model.attempts;
      const changes = recordedChanges(
        records,
        resolvePoint(records, NOW_POINT, tree),
        resolvePoint(records, `${ATTEMPT_POINT}${a.n}`, tree),
      );
      if (!changes.length) {
        void vscode.window.showInformationMessage(vscode.l10n.t('The current files already match Attempt {0}.', a.n));
        return;
      }
      const picks = await vscode.window.showQuickPick(
        changes.map((c) => ({ label: d.model.relative(c.path), description: takeWords(c.change), path: c.path })),
        {
          placeHolder: vscode.l10n.t('Take which files from Attempt {0}? (each one as it was when the attempt was left)', a.n),
          canPickMany: true,
        },
      );
      if (!picks?.length) return;
      const paths = picks.map((p) => p.path);
      const names = paths.length === 1 ? d.model.relative(paths[0]!) : vscode.l10n.t('{0} files', paths.length);
      const take = vscode.l10n.t('Take');
      const choose = vscode.l10n.t('Choose Files and Lines…');
      const ok = await vscode.window.showWarningMessage(
        vscode.l10n.t('Take {0} from Attempt {1}?', names, a.n),
        {
          modal: true,
          detail:
            paths.length === 1
              ? vscode.l10n.t('Only this file changes; the current attempt goes on. Undo brings the current content back.')
              : vscode.l10n.t('Only these files change; the current attempt goes on. Undo brings the current content back.'),
        },
        take,
        choose,
      );
      if (ok === take) await d.reporter.applyAndReport(a.end.id, { paths });
      // The preview of the take: each file and its hunks with a checkbox, as any rewind's preview.
      else if (ok === choose) d.preview.show({ targetId: a.end.id, scope: 'files', paths });
    },
  };
}

/** What taking a file from the attempt does to it, in words (the change from the current files to the attempt's). */
function takeWords(change: RecordedChange['change']): string {
  const words: Record<RecordedChange['change'], string> = {
    added: vscode.l10n.t('recreated: the attempt has it, the current files do not'),
    deleted: vscode.l10n.t('deleted: the attempt did not have it'),
    modified: vscode.l10n.t("the attempt's version"),
    mode: vscode.l10n.t("the attempt's executable bit"),
  };
  return words[change];
}
