// The preview webview's host side: plans the rewind (the dry run), sends the model, and carries
// out what the user chooses — files, conversation or both — then reports with an Undo.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { BEFORE_CALL } from '../../core/timeline/timeline';
import {
  type ChosenFile,
  emptyPreviewModel,
  isWebviewMessage,
  type HostToWebview,
  type PreviewModel,
  type Scope,
  type WebviewToHost,
} from '../../shared/messages';
import type { PlainPlan } from '../offHost/protocol';
import type { StalePath } from '../../core/rewind/transaction';
import { previewHtml } from './previewHtml';
import { followWorld } from './followWorld';
import type { ConversationRewinder, ConversationTarget } from '../rewind/conversationRewinder';
import type { RewindReporter } from '../rewind/rewindReporter';
import { callKey, type RewindService, dirtyAmong, runCompensations, unsavedToWrite } from '../rewind/rewindService';
import { snapshotUri } from '../views/snapshotContent';
import type { TimelineModel } from '../model/timelineModel';
import { isError, localizedMessage } from '../../core/errors';
import { whenSlow } from '../timers';

/** Plans that take longer than this show a progress notification (with Cancel). */
const PROGRESS_AFTER_MS = 300;

/** How many of the plans last sent are kept to rewind by (a click can cross a few re-plans in flight). */
const KEPT_PLANS = 4;

/**
 * The line a click that wrote nothing shows above the new plan: which files changed after the preview
 * the user acted on was made (on disk, or in what the rewind would do there).
 */
export function staleNotice(changed: readonly StalePath[], rel: (p: string) => string): string {
  const names = (why: StalePath['why']) =>
    changed
      .filter((c) => c.why === why)
      .map((c) => rel(c.path))
      .join(', ');
  const disk = names('disk');
  const plan = names('plan');
  return [
    disk ? vscode.l10n.t('{0} changed on disk after this preview was made — check the new plan.', disk) : '',
    plan ? vscode.l10n.t('What the rewind would do to {0} changed after this preview was made — check the new plan.', plan) : '',
    vscode.l10n.t('Nothing was written.'),
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * Why a rewind to just before a tool call rewinds files only: a Claude transcript can be cut only
 * before a prompt; cut mid-turn, before the assistant message that made the call, it would leave a
 * turn without its end (and the results of that message's other calls), which cannot be resumed.
 */
export const stepConversationReason = (): string =>
  vscode.l10n.t(
    'this point is in the middle of a turn. A conversation can be rewound only to before a prompt; use “Rewind Conversation to Before This Prompt” on the prompt for that.',
  );

/**
 * The files (and hunks) the page chose, as the rewind's `paths` and `hunks`: the same options as the
 * CLI's --path and --hunks, so the core shapes and checks the bytes (shapeWrites) as it does there.
 */
export function chosenOnly(files: readonly ChosenFile[] | undefined): { paths?: string[]; hunks?: Map<string, string[]> } {
  if (!files) return {};
  const hunks = new Map(files.filter((f) => f.hunks?.length).map((f) => [f.path, [...f.hunks!]]));
  return { paths: files.map((f) => f.path), ...(hunks.size ? { hunks } : {}) };
}

export interface PreviewRequest {
  /** The file checkpoint (absent for a conversation-only rewind with no checkpoint). */
  targetId?: string;
  scope: Scope;
  paths?: string[];
  conversation?: ConversationTarget;
}

export class PreviewPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private request: PreviewRequest | undefined;
  private onlySession: string | null = null;
  /** The page's choices, kept when the panel closes (the page owns their meaning and checks them). */
  private keptChoices: unknown;
  private plan: PlainPlan | undefined;
  /** Cancels the plan being built (a newer build, closing the panel, or Cancel on its progress). */
  private planning: vscode.CancellationTokenSource | undefined;
  /** The model last sent, and the build under way (a newer one makes an older one's result stale). */
  private lastModel: PreviewModel | undefined;
  /** What the newest finished build sent (a model or an error), and for which generation: a page that loads late gets it. */
  private lastReply: { generation: number; message: HostToWebview } | undefined;
  private building: Promise<void> = Promise.resolve();
  private generation = 0;
  /** The plans last sent, by their model's stamp: a page may act on one a newer build has replaced (a few are kept). */
  private readonly shown = new Map<string, PlainPlan>();
  private stamps = 0;
  /** Said with every model until the next rewind click: what changed under a click that wrote nothing. */
  private notice: string | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly model: TimelineModel,
    private readonly service: RewindService,
    private readonly reporter: RewindReporter,
    private readonly conversation: ConversationRewinder | undefined,
  ) {
    this.disposables.push(model.onDidChange(() => this.post()));
  }

  show(request: PreviewRequest): void {
    this.request = request;
    this.onlySession = null;
    this.lastModel = undefined;
    this.notice = undefined;
    if (!this.panel) {
      const roots = [vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(this.extensionUri, 'media')];
      this.panel = vscode.window.createWebviewPanel('agentRewind.preview', vscode.l10n.t('Rewind Preview'), vscode.ViewColumn.Active, {
        enableScripts: true,
        localResourceRoots: roots,
        retainContextWhenHidden: false,
      });
      this.panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'icon.svg');
      const w = this.panel.webview;
      w.html = previewHtml({
        cspSource: w.cspSource,
        scriptUri: w.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview', 'preview.js')).toString(),
        styleUri: w.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'media', 'preview.css')).toString(),
        codiconUri: w.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview', 'codicon.css')).toString(),
        l10n: vscode.l10n,
        bundle: vscode.l10n.bundle,
        language: vscode.env.language,
      });
      // Unsaved editors and the files on disk, followed while the panel is open (the store: the model, above).
      const following = followWorld({ paths: () => this.planPaths(), unsavedDiffers: () => this.unsavedDiffers() }, () => this.post());
      this.panel.onDidDispose(
        () => {
          this.panel = undefined;
          following.dispose();
          this.stopPlanning();
        },
        undefined,
        this.disposables,
      );
      w.onDidReceiveMessage((m: unknown) => void this.handleMessage(m), undefined, this.disposables);
    } else this.panel.reveal();
    // Planning starts now, while the page loads; its 'ready' gets the model if it is done by then.
    this.post();
  }

  /** Every file the plan shown names: to write, blocked, uncertain, warned of, left alone. */
  private planPaths(): ReadonlySet<string> {
    const p = this.plan;
    if (!p) return new Set();
    return new Set([...p.files, ...p.blocked, ...p.uncertain, ...p.warnings, ...p.leftAlone].map((x) => x.path));
  }

  /** The plan's unsaved files now are not the ones the model last sent says (a build under way will say them). */
  private unsavedDiffers(): boolean {
    if (!this.plan || !this.lastModel) return false;
    const now = unsavedToWrite(this.plan).sort();
    const shown = this.lastModel.dirty.map((d) => d.path).sort();
    return now.length !== shown.length || now.some((p, i) => p !== shown[i]);
  }

  get isOpen(): boolean {
    return !!this.panel;
  }

  /** The model last sent (for tests). */
  current(): PreviewModel | undefined {
    return this.lastModel;
  }

  /** The model once the newest build is done (for tests and the rewind). */
  async settled(): Promise<PreviewModel | undefined> {
    for (let seen = -1; seen !== this.generation;) {
      seen = this.generation;
      await this.building;
    }
    return this.lastModel;
  }

  private send(m: HostToWebview): void {
    try {
      void this.panel?.webview.postMessage(m);
    } catch {
      /* disposed meanwhile: nothing to tell */
    }
  }

  private close(): void {
    this.stopPlanning();
    const p = this.panel;
    this.panel = undefined;
    p?.dispose();
  }

  private async build(): Promise<PreviewModel | undefined> {
    const req = this.request;
    if (!req) return undefined;
    const available: Scope[] = [];
    let unavailableReason: string | undefined;
    let conv: PreviewModel['conversation'] = null;
    const step = !!req.targetId?.startsWith(BEFORE_CALL);
    if (step) unavailableReason = stepConversationReason();
    else if (req.conversation && this.conversation) {
      const d = this.conversation.describe(req.conversation);
      if (d && 'unavailable' in d) unavailableReason = d.unavailable;
      else conv = d;
    } else
      unavailableReason = req.conversation
        ? vscode.l10n.t('Conversation rewind is not available for this agent.')
        : vscode.l10n.t('Open the preview from a prompt in the Conversation view to rewind the conversation too.');
    if (req.targetId) available.push('files');
    if (conv && !step) available.push('conversation');
    if (conv && !step && req.targetId) available.push('both');
    const scope: PreviewModel['scope'] = {
      default: available.includes(req.scope) ? req.scope : (available[0] ?? 'files'),
      available,
      ...(unavailableReason ? { unavailableReason } : {}),
    };
    if (req.targetId) {
      const gen = this.generation;
      const plan = await this.planWithProgress(req.targetId, {
        ...(req.paths ? { paths: req.paths } : {}),
        ...(this.onlySession ? { sessions: [this.onlySession] } : {}),
      });
      if (gen !== this.generation) return undefined; // superseded, or the panel closed meanwhile
      this.plan = plan;
      const stamp = String(++this.stamps);
      this.shown.set(stamp, plan);
      for (const old of this.shown.keys()) if (this.shown.size > KEPT_PLANS) this.shown.delete(old);
      return {
        ...this.service.previewModel(plan, scope, conv, this.onlySession),
        stamp,
        ...(this.notice ? { notice: this.notice } : {}),
      };
    }
    this.plan = undefined;
    return {
      ...emptyPreviewModel(),
      target: {
        id: '',
        label: req.conversation?.prompt.text ?? '',
        kind: 'prompt',
        time: new Date(req.conversation?.prompt.time ?? Date.now()).toISOString(),
      },
      scope,
      conversation: conv,
    };
  }

  private reply(generation: number, message: HostToWebview): void {
    this.lastReply = { generation, message };
    this.send(message);
  }

  /** A plan still being built is for nobody now: the panel closed. */
  private stopPlanning(): void {
    this.generation++;
    this.planning?.cancel();
    this.planning = undefined;
  }

  /** The plan (in the worker), with a cancellable progress notification once it takes over PROGRESS_AFTER_MS. */
  private async planWithProgress(targetId: string, opts: { paths?: string[]; sessions?: string[] }): Promise<PlainPlan> {
    this.planning?.cancel();
    const cts = (this.planning = new vscode.CancellationTokenSource());
    const plan = this.service.plan(targetId, opts, cts.token, 'preview');
    whenSlow(plan, PROGRESS_AFTER_MS, () => {
      if (cts.token.isCancellationRequested) return;
      void vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Agent Rewind: planning the rewind…'), cancellable: true },
        (_progress, token) => {
          token.onCancellationRequested(() => cts.cancel());
          return plan.then(
            () => undefined,
            () => undefined,
          );
        },
      );
    });
    try {
      return await plan;
    } finally {
      if (this.planning === cts) this.planning = undefined;
      cts.dispose();
    }
  }

  /** Builds and sends the model; a newer call (or closing the panel) makes an unfinished one's result stale. */
  private post(): void {
    if (!this.panel) return;
    const gen = ++this.generation;
    this.building = (async () => {
      try {
        const model = await this.build();
        if (!model || gen !== this.generation || !this.panel) return;
        this.lastModel = model;
        this.reply(gen, { type: 'model', model, ...(this.keptChoices ? { choices: this.keptChoices } : {}) });
      } catch (e) {
        if (gen !== this.generation) return; // superseded: the newer build answers
        const message = isError(e, 'worker-cancelled')
          ? vscode.l10n.t('Planning was cancelled. Press Refresh to plan this rewind again.')
          : localizedMessage(e, vscode.l10n);
        this.reply(gen, { type: 'error', message });
      }
    })();
  }

  /** Handles one message from the webview (public so tests can drive the host side as the webview does). */
  async handleMessage(raw: unknown): Promise<void> {
    if (!isWebviewMessage(raw)) return; // the host never trusts the webview's shape
    const m: WebviewToHost = raw;
    switch (m.type) {
      case 'ready':
        // The page missed what was sent before it loaded: the model, if the newest build is done.
        if (this.lastReply?.generation === this.generation) this.send(this.lastReply.message);
        return;
      case 'refresh':
        this.post();
        return;
      case 'setSession':
        this.onlySession = m.session;
        this.post();
        return;
      case 'saveAll':
        await vscode.workspace.saveAll(false);
        this.post();
        return;
      case 'openDiff':
        await this.openDiff(m.path);
        return;
      case 'openConflict':
        await this.openConflict(m.path);
        return;
      case 'cancel':
        this.close();
        // Back where the rewind was started from, not on a page body.
        void vscode.commands.executeCommand('agentRewind.files.focus');
        return;
      case 'choices':
        this.keptChoices = m.choices;
        return;
      case 'rewind':
        // A choice like "Rewind anyway" is for this one rewind: never carried into the next preview.
        this.keptChoices = undefined;
        await this.rewind(m.scope, m.compensations, { force: m.force, keepMine: m.keepMine === true, files: m.files, stamp: m.stamp });
        return;
      default: {
        const never: never = m;
        return never;
      }
    }
  }

  private async openDiff(p: string): Promise<void> {
    const change = this.plan?.changes.find((c) => c.path === p);
    if (!change || !this.plan) return;
    const label = vscode.l10n.t('{0} (now ↔ after rewind)', path.basename(p));
    const left = change.from.hash === null && !change.from.skipped ? snapshotUri(p, null, 'now') : vscode.Uri.file(p);
    await vscode.commands.executeCommand('vscode.diff', left, snapshotUri(p, change.to.hash, this.plan.target.id), label, {
      preview: true,
    });
  }

  /**
   * A file Keep mine cannot merge, to resolve by hand: the diff editor (the public `vscode.diff`) with the
   * rewind point on the left, read-only (the store's copy, served by the snapshot content provider), and the
   * file on disk on the right, where the user edits it; saving it re-plans the preview (followWorld). Not the
   * 3-way merge editor: it opens only through an internal command whose arguments changed between releases.
   */
  private async openConflict(p: string): Promise<void> {
    const change = this.plan?.changes.find((c) => c.path === p);
    if (!change || !this.plan || change.to.hash === null) return;
    const label = vscode.l10n.t('{0} (at the rewind point ↔ yours on disk)', path.basename(p));
    await vscode.commands.executeCommand('vscode.diff', snapshotUri(p, change.to.hash, this.plan.target.id), vscode.Uri.file(p), label, {
      preview: false,
    });
  }

  private async rewind(
    scope: Scope,
    compensations: string[],
    how: { force: boolean; keepMine: boolean; files: ChosenFile[] | undefined; stamp: string | undefined },
  ): Promise<void> {
    // The plan the page showed (by its stamp; a caller without one: the newest, once built) — never one it did not.
    if (how.stamp === undefined) await this.settled();
    const seen = how.stamp === undefined ? this.plan : this.shown.get(how.stamp);
    const req = this.request;
    if (!req) return;
    this.notice = undefined;
    if (!seen && req.targetId && scope !== 'conversation') {
      this.notice = vscode.l10n.t('The preview changed after you clicked — check the new plan. Nothing was written.');
      this.post();
      return;
    }
    if (scope !== 'files' && req.targetId?.startsWith(BEFORE_CALL)) {
      // The page disables these choices; a message that asks anyway is refused out loud, never ignored.
      this.send({ type: 'error', message: vscode.l10n.t('The conversation cannot be rewound here: {0}', stepConversationReason()) });
      return;
    }
    this.send({ type: 'busy', busy: true, message: vscode.l10n.t('Rewinding…') });
    try {
      // No file chosen on the page: no file is written (never "every file", which empty paths would mean to the core).
      const files = scope !== 'conversation' && how.files?.length !== 0 && req.targetId;
      if (files) {
        // Only the files the page chose are written: an unsaved editor on a file left alone does not stop it.
        const dirty = dirtyAmong(how.files?.map((f) => f.path) ?? (seen?.files ?? []).map((f) => f.path));
        if (dirty.length) {
          this.send({
            type: 'error',
            message: vscode.l10n.t(
              '{0} affected file(s) have unsaved changes in an editor. Save them (Save All) or close them without saving, then rewind.',
              dirty.length,
            ),
          });
          return;
        }
        const picked = (seen?.notUndone ?? []).filter((n) => compensations.includes(callKey(n)));
        // What the page showed for the files it chose: under the lock, a plan that differs writes nothing.
        const chosen = how.files && new Set(how.files.map((f) => f.path));
        const expect = new Map([...(seen?.seen ?? [])].filter(([p]) => !chosen || chosen.has(p)));
        let stale = false;
        const ok = await this.reporter.applyAndReport(
          req.targetId!,
          {
            ...(req.paths ? { paths: req.paths } : {}),
            ...chosenOnly(how.files),
            ...(this.onlySession ? { sessions: [this.onlySession] } : {}),
            force: how.force,
            ...(how.keepMine ? { keepMine: true } : {}),
            expect,
          },
          {
            onStale: (changed) => {
              stale = true;
              this.notice = staleNotice(changed, (p) => this.model.relative(p));
            },
          },
        );
        if (stale) {
          // The new plan, with the line saying what changed; the conversation is not forked either.
          this.post();
          return;
        }
        if (!ok) {
          this.post();
          return;
        }
        runCompensations(picked, req.conversation?.session.cwd ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath);
      }
      if (scope !== 'files' && req.conversation && this.conversation) await this.conversation.fork(req.conversation, !!files);
      this.close();
    } catch (e) {
      this.send({ type: 'error', message: localizedMessage(e, vscode.l10n) });
    } finally {
      this.send({ type: 'busy', busy: false });
    }
  }

  dispose(): void {
    this.panel?.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
