// Every command's handler, registered through one wrapper that reports errors plainly. Handlers
// accept the tree element they were invoked on, or ask with a quick pick from the palette.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { hooksDisabledWords, notPlainJsonWords } from '../../agents/claude/connect';
import { settingsPath } from '../../agents/claude/settings';
import { CONNECTORS, retireVscodeFile } from '../../agents/connectors';
import { newId } from '../../core/storeFiles/ids';
import { CMD, type CommandId } from '../commandIds';
import { refuseUnsavedConfig } from '../connect/agentConnections';
import type { ConvPrompt, ConvSession } from '../model/conversationModel';
import type { CommandDeps } from './commandDeps';
import { type ConvElement, PromptNode } from '../views/conversationView';
import { checkpointLabel, FileRow, kindName, type FilesElement } from '../views/filesView';
import { pickFolders } from '../pickFolders';
import { oneLine, rewindCountWords } from '../../shared/text';
import { relativeTime } from '../views/relativeTime';
import { snapshotUri } from '../views/snapshotContent';
import { restoreOne, stepHandlers } from './stepCommands';
import { compareHandlers } from './compareCommands';
import type { CheckpointNode, TimelineModel } from '../model/timelineModel';
import { localizedMessage } from '../../core/errors';

/** Every diff from the tree is titled by both its sides: "greet.js (before ↔ after this turn)". */
const diffTitle = (p: string, what: string) => vscode.l10n.t('{0} (before ↔ after {1})', path.basename(p), what);

async function pickCheckpoint(model: TimelineModel, placeHolder: string, onlyPath?: string): Promise<string | undefined> {
  // With a file in mind: only the checkpoints a rewind of that file would change it at.
  const nodes = onlyPath ? model.checkpoints.filter((n) => model.rewindsPath(n.checkpoint.id, onlyPath)) : model.checkpoints;
  return pickCheckpointOf(model, nodes.length ? nodes : model.checkpoints, placeHolder);
}

/** A quick pick of `nodes` (every checkpoint, folded ones too: each is a rewind target). */
async function pickCheckpointOf(model: TimelineModel, nodes: readonly CheckpointNode[], placeHolder: string): Promise<string | undefined> {
  const items = nodes.map((n) => ({
    label: checkpointLabel(n, 80),
    // The count its Files view row shows (the row `checkpoints --json` prints).
    description: `${relativeTime(n.checkpoint.time)} · ${rewindCountWords(model.row(n.checkpoint.id)?.toRewind ?? 0, vscode.l10n)}`,
    // Words, not the stored kind ("before-tool", "session-start").
    detail: kindName(n.checkpoint.kind),
    id: n.checkpoint.id,
  }));
  if (!items.length) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'No checkpoints recorded yet. Connect an agent (Agent Rewind: Connect Agents…) and start a session, or create a checkpoint.',
      ),
    );
    return undefined;
  }
  return (await vscode.window.showQuickPick(items, { placeHolder, matchOnDescription: true }))?.id;
}

function checkpointOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  const el = arg as FilesElement | undefined;
  return el?.kind === 'checkpoint' ? el.node.checkpoint.id : el?.kind === 'file' ? el.checkpointId : undefined;
}

function promptOf(arg: unknown): Extract<ConvElement, { kind: 'prompt' }> | undefined {
  const el = arg as ConvElement | undefined;
  return el?.kind === 'prompt' ? el : undefined;
}

async function pickPrompt(d: CommandDeps): Promise<Extract<ConvElement, { kind: 'prompt' }> | undefined> {
  const items = d.conversation.all.flatMap((session) =>
    session.prompts.map((prompt, index) => ({
      label: oneLine(prompt.text, 80),
      description: `${relativeTime(prompt.time)} · ${session.title.slice(0, 40)}`,
      el: new PromptNode(session, prompt, index),
    })),
  );
  if (!items.length) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No prompts recorded yet.'));
    return undefined;
  }
  return (await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Rewind to before which prompt?') }))?.el;
}

/** The conversation prompt a file checkpoint was taken at, so a preview from Files can offer "both" too. */
function conversationFor(d: CommandDeps, checkpointId: string) {
  const walk = (sessions: readonly ConvSession[]): { session: ConvSession; prompt: ConvPrompt } | undefined => {
    for (const session of sessions) {
      const prompt = session.prompts.find((p) => p.checkpointId === checkpointId);
      if (prompt) return { session, prompt };
      const inFork = walk(session.forks);
      if (inFork) return inFork;
    }
    return undefined;
  };
  return walk(d.conversation.all);
}

function filesPreview(d: CommandDeps, id: string) {
  const conversation = conversationFor(d, id);
  d.preview.show({ targetId: id, scope: 'files', ...(conversation ? { conversation } : {}) });
}

/** What connecting Claude Code writes in `folder`: its settings, and VS Code's hook file it retires. */
function claudeConfigFiles(folder: string): string[] {
  return [settingsPath(folder), ...(CONNECTORS.find((c) => c.agent === 'vscode')?.files(folder) ?? [])];
}

type Handler = (...args: unknown[]) => unknown;
type Handlers = Partial<Record<CommandId, Handler>>;

/** Rewinding files: to a checkpoint, one file, and undoing the last rewind. */
function fileRewindHandlers(d: CommandDeps) {
  return {
    [CMD.rewindFilesToHere]: async (arg) => {
      const id = checkpointOf(arg) ?? (await pickCheckpoint(d.model, vscode.l10n.t('Rewind files to which checkpoint?')));
      if (id) filesPreview(d, id);
    },
    // A row that holds folded checkpoints (identical files): pick which of them to rewind to (a session start and its prompt differ for the conversation).
    [CMD.rewindToFolded]: async (arg) => {
      const id = checkpointOf(arg);
      const row = id ? d.model.find(d.model.rowOf(id)) : undefined;
      if (!row) return;
      const id2 = await pickCheckpointOf(
        d.model,
        [row, ...row.folded],
        vscode.l10n.t('Rewind to which of these checkpoints (the same files)?'),
      );
      if (id2) filesPreview(d, id2);
    },
    [CMD.previewRewind]: async (arg) => {
      const id = checkpointOf(arg) ?? (await pickCheckpoint(d.model, vscode.l10n.t('Preview a rewind to which checkpoint?')));
      if (id) filesPreview(d, id);
    },
    [CMD.restoreFile]: async (arg) => {
      let el = arg as FilesElement | undefined;
      if (el?.kind !== 'file') {
        // From the palette: the file in the active editor, when it is one the agent changed; else ask.
        const active = vscode.window.activeTextEditor?.document.uri;
        const activePath = active?.scheme === 'file' ? active.fsPath : undefined;
        const id = await pickCheckpoint(
          d.model,
          activePath
            ? vscode.l10n.t('Restore {0} to how it was at which checkpoint?', d.model.relative(activePath))
            : vscode.l10n.t('Restore a file to how it was at which checkpoint?'),
          activePath,
        );
        if (!id) return;
        const changes = d.model.turnOf(id) ? d.model.turnFiles(id) : d.model.spanFiles(id);
        const own = activePath ? changes.find((c) => c.path === activePath) : undefined;
        const planned = activePath && !own ? (await d.service.plan(id, { paths: [activePath], noGit: true })).changes[0] : undefined;
        const change = own ?? (planned ? { path: planned.path, from: undefined, to: planned.to } : undefined);
        if (change) el = new FileRow(id, change);
        else {
          const pick = await vscode.window.showQuickPick(
            changes.map((c) => ({ label: d.model.relative(c.path), change: c })),
            { placeHolder: vscode.l10n.t('Which file?') },
          );
          if (!pick) return;
          el = new FileRow(id, pick.change);
        }
      }
      const cp = d.model.find(el.checkpointId);
      if (!cp) {
        void vscode.window.showInformationMessage(vscode.l10n.t('That checkpoint is no longer recorded (it was cleaned up).'));
        return;
      }
      await restoreOne(d, el.checkpointId, el.change.path, vscode.l10n.t('at "{0}"', oneLine(cp.label, 60)));
    },
    [CMD.undoLastRewind]: async () => {
      const last = d.model.lastRewind();
      if (!last) {
        void vscode.window.showInformationMessage(vscode.l10n.t('There is no rewind to undo.'));
        return;
      }
      const undoRewind = vscode.l10n.t('Undo Rewind');
      const ok = await vscode.window.showWarningMessage(
        vscode.l10n.t('Undo the last rewind ({0})?', relativeTime(last.checkpoint.time)),
        {
          modal: true,
          detail: vscode.l10n.t('{0}. The files it wrote go back to what they were right before it.', oneLine(last.label, 100)),
        },
        undoRewind,
      );
      if (ok === undoRewind) await d.reporter.applyAndReport(last.checkpoint.id);
    },
  } satisfies Handlers;
}

/** The preview of a rewind to before a prompt (the one invoked on, else picked), of its conversation or of both. */
function previewFromPrompt(d: CommandDeps, scope: 'conversation' | 'both'): Handler {
  return async (arg) => {
    const el = promptOf(arg) ?? (await pickPrompt(d));
    if (el)
      d.preview.show({
        ...(el.prompt.checkpointId ? { targetId: el.prompt.checkpointId } : {}),
        scope,
        conversation: { session: el.session, prompt: el.prompt },
      });
  };
}

/** Rewinding from a prompt: the conversation, both, or its files. */
function conversationHandlers(d: CommandDeps) {
  return {
    [CMD.rewindConversation]: previewFromPrompt(d, 'conversation'),
    [CMD.rewindBoth]: previewFromPrompt(d, 'both'),
    [CMD.rewindFilesBeforePrompt]: async (arg) => {
      const el = promptOf(arg) ?? (await pickPrompt(d));
      if (!el) return;
      if (!el.prompt.checkpointId) {
        void vscode.window.showInformationMessage(
          vscode.l10n.t('No file checkpoint was recorded for this prompt (the hooks were not connected yet).'),
        );
        return;
      }
      d.preview.show({ targetId: el.prompt.checkpointId, scope: 'files', conversation: { session: el.session, prompt: el.prompt } });
    },
  } satisfies Handlers;
}

/** The Files view: checkpoints made by hand, the filter, paging. */
function checkpointHandlers(d: CommandDeps) {
  return {
    [CMD.createCheckpoint]: async () => {
      const manual = vscode.l10n.t('Manual checkpoint');
      const label = await vscode.window.showInputBox({
        prompt: vscode.l10n.t('Name this checkpoint'),
        placeHolder: vscode.l10n.t('e.g. before trying the big refactor'),
        value: manual,
      });
      if (label === undefined) return;
      d.store.append([d.store.checkpointRecord({ id: newId(), kind: 'manual', label: label || manual, agent: 'user' })]);
      d.model.reload();
    },
    [CMD.refresh]: () => d.model.reload(),
    [CMD.filterCheckpoints]: async () => {
      const text = await vscode.window.showInputBox({
        prompt: vscode.l10n.t('Show only the prompts whose text contains (empty: show all)'),
        placeHolder: vscode.l10n.t('e.g. refactor'),
        value: d.files.filter,
      });
      if (text !== undefined) d.files.setFilter(text);
    },
    [CMD.clearFilter]: () => d.files.setFilter(''),
    [CMD.loadMore]: (key: unknown) => {
      if (typeof key === 'string') d.files.loadMore(key);
    },
  } satisfies Handlers;
}

/** Connecting and disconnecting agents. */
function connectHandlers(d: CommandDeps) {
  return {
    [CMD.connectAgents]: async (agents?: unknown) => {
      await d.agents.connectCommand(Array.isArray(agents) ? agents : undefined);
      d.updateContext();
    },
    [CMD.disconnectAgents]: async (agents?: unknown) => {
      await d.agents.disconnectCommand(Array.isArray(agents) ? agents : undefined);
      d.updateContext();
    },
    [CMD.connectClaude]: async () => {
      if (!vscode.workspace.isTrusted) {
        void vscode.window.showWarningMessage(
          vscode.l10n.t('Trust this workspace before connecting an agent: Connect writes hook commands into its .claude folder.'),
        );
        return;
      }
      for (const folder of await pickFolders(vscode.l10n.t('Connect Claude Code in which folder?'))) {
        if (refuseUnsavedConfig(claudeConfigFiles(folder.uri.fsPath), folder.uri.fsPath, 'Connect')) continue;
        const r = d.claude.connect(folder.uri.fsPath);
        // Our .github hook file would now deliver VS Code's and Copilot CLI's events a second time.
        const retired = retireVscodeFile(folder.uri.fsPath, d.agents.target(), vscode.l10n);
        if (retired) d.output.info(retired.notes.join(' '));
        const rel = path.relative(folder.uri.fsPath, r.file);
        if (r.hooksDisabled) void vscode.window.showWarningMessage(hooksDisabledWords(rel, vscode.l10n));
        if (r.problems.length)
          void vscode.window
            .showWarningMessage(notPlainJsonWords(rel, r.problems, vscode.l10n), vscode.l10n.t('Open File'))
            .then((p) => (p ? vscode.window.showTextDocument(vscode.Uri.file(r.file)) : undefined));
        void vscode.window.showInformationMessage(
          r.changed
            ? vscode.l10n.t(
                'Connected Claude Code in {0}: sessions started there from now on are recorded (hooks in {1}). Running sessions pick them up on their next start.',
                folder.name,
                rel,
              )
            : vscode.l10n.t('Claude Code is already connected in {0}.', folder.name),
        );
      }
      d.updateContext();
    },
    [CMD.disconnectClaude]: async () => {
      for (const folder of await pickFolders(vscode.l10n.t('Disconnect Claude Code in which folder?'))) {
        if (refuseUnsavedConfig([settingsPath(folder.uri.fsPath)], folder.uri.fsPath, 'Disconnect')) continue;
        const r = d.claude.disconnect(folder.uri.fsPath);
        void vscode.window.showInformationMessage(
          r.changed
            ? vscode.l10n.t(
                "Disconnected Claude Code in {0}: removed Agent Rewind's hooks, kept everything else. What was recorded stays until you delete it.",
                folder.name,
              )
            : vscode.l10n.t('Claude Code was not connected in {0}.', folder.name),
        );
      }
      d.updateContext();
    },
  } satisfies Handlers;
}

/** The store's upkeep, and the diff and reveal of a tree row. */
function storageAndDiffHandlers(d: CommandDeps) {
  return {
    [CMD.showStorage]: () => d.storage.showUsage(),
    [CMD.cleanUp]: () => d.storage.cleanUp(),
    [CMD.deleteAllData]: () => d.storage.deleteAll(),
    [CMD.openFileDiff]: async (arg) => {
      const el = arg as FilesElement | undefined;
      if (el?.kind !== 'file') return;
      const c = el.change;
      const cp = d.model.find(el.checkpointId)?.checkpoint;
      const left = snapshotUri(c.path, c.from && !c.from.skipped ? c.from.hash : null, 'before');
      const right = snapshotUri(c.path, c.to.skipped ? null : c.to.hash, 'after');
      await vscode.commands.executeCommand(
        'vscode.diff',
        left,
        right,
        diffTitle(c.path, d.model.turnOf(el.checkpointId) ? vscode.l10n.t('this turn') : `"${oneLine(cp ? d.model.label(cp) : '', 30)}"`),
        { preview: true },
      );
    },
    [CMD.revealCheckpoint]: async (arg) => {
      const el = promptOf(arg);
      const id = el?.prompt.checkpointId;
      const target = id ? d.files.checkpointElement(id) : undefined;
      if (target) await d.filesTree.reveal(target, { select: true, focus: false, expand: true });
    },
  } satisfies Handlers;
}

/** Every command, each group of handlers in its own function, registered through one wrapper that reports errors plainly. */
export function registerCommands(d: CommandDeps): vscode.Disposable[] {
  const handlers: Record<CommandId, Handler> = {
    ...stepHandlers(d),
    ...compareHandlers(d),
    ...fileRewindHandlers(d),
    ...conversationHandlers(d),
    ...checkpointHandlers(d),
    ...connectHandlers(d),
    ...storageAndDiffHandlers(d),
    // Only the "store unusable" state offers these; with a working store there is nothing to move aside.
    [CMD.revealStoreFolder]: () => d.storage.showUsage(),
    [CMD.moveStoreAside]: () =>
      vscode.window.showInformationMessage(vscode.l10n.t("This workspace's store is working: there is nothing to move aside.")),
  };

  return Object.entries(handlers).map(([id, fn]) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await fn(...args);
      } catch (e) {
        const msg = localizedMessage(e, vscode.l10n);
        const showLog = vscode.l10n.t('Show Log');
        d.output.error(`${id} failed: ${(e as Error).stack ?? msg}`);
        void vscode.window.showErrorMessage(vscode.l10n.t('Agent Rewind: {0}', msg), showLog).then((p) => p && d.output.show(true));
        return undefined;
      }
    }),
  );
}
