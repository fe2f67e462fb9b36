// The composition root: store -> model -> views -> services -> commands, all owned by the
// extension context. Activation stays cheap: nothing here reads more than the store's timeline.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { recoverUnfinished } from '../core/rewind/journal';
import { writeWorkspaceFolders } from '../core/workspace/roots';
import { realDir } from '../core/workspace/realPath';
import { Store } from '../core/store';
import { AgentConnections } from './connect/agentConnections';
import { storeUnderParent } from '../core/storeFiles/workspaceStore';
import { Busy } from './rewind/busy';
import { ClaudeConnection, installCli } from './connect/claudeConnection';
import { CMD, type CommandId, CTX, VIEW } from './commandIds';
import { registerCommands } from './commands/commands';
import { ClaudeConversationRewinder } from './rewind/conversationRewinder';
import { ConversationSource } from './model/conversationSource';
import { type ConvElement, ConversationView } from './views/conversationView';
import { type FilesElement, FilesView } from './views/filesView';
import { LineStatsSource } from './offHost/lineStatsSource';
import { TranscriptReader } from './offHost/transcriptReader';
import { WorkerClient } from './offHost/workerClient';
import { PreviewPanel } from './preview/previewPanel';
import { RewindReporter } from './rewind/rewindReporter';
import { RewindService } from './rewind/rewindService';
import { readSettings, workspaceSetsEffectOverrides, writeStoreConfig } from './settings';
import { SNAPSHOT_SCHEME, SnapshotContentProvider } from './views/snapshotContent';
import type { RowStats } from './views/rowStats';
import { type Recording, StatusBar } from './views/statusBar';
import { StepIndex } from './model/stepIndex';
import { StorageCommands } from './commands/storageCommands';
import { showStoreUnusable } from './model/storeProblem';
import { StoreWatcher } from './model/storeWatcher';
import { TimelineModel } from './model/timelineModel';

export const STORE_ENV = 'AGENT_REWIND_STORE';

/** What the integration tests reach through `extension.exports`. */
export interface AgentRewindApi {
  storeDir: string | undefined;
  model?: TimelineModel;
  files?: FilesView;
  conversation?: ConversationView;
  steps?: StepIndex;
  preview?: PreviewPanel;
  service?: RewindService;
  planner?: WorkerClient;
  /** The worker that serves the views: transcripts, line counts of file rows. */
  viewWorker?: WorkerClient;
  lineStats?: LineStatsSource;
  rewinder?: ClaudeConversationRewinder;
  status?: StatusBar;
  agents?: AgentConnections;
  activationMs: number;
}

/**
 * This workspace's store: `<storeDirectory>/<name>-<id>/` when the setting names a parent folder (one
 * store per workspace, never shared), else VS Code's storage for this workspace.
 */
function storeDirFor(context: vscode.ExtensionContext): { dir: string; oldStore?: string } | undefined {
  const configured = readSettings().storeDirectory.trim();
  const wsFile = vscode.workspace.workspaceFile;
  const identity = wsFile?.scheme === 'file' ? wsFile.fsPath : vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (configured && identity) {
    const parent = path.resolve(configured);
    return storeUnderParent(parent, identity, context.workspaceState.get<string>(KEEP_OLD_STORE) === parent);
  }
  return context.storageUri ? { dir: path.join(context.storageUri.fsPath, 'store') } : undefined;
}

/** The workspace's choice to keep using a storeDirectory that is itself a store (the setting's old meaning). */
const KEEP_OLD_STORE = 'agentRewind.keepOldStore';
const TOLD_OLD_STORE = 'agentRewind.toldOldStore';

/** Said once per workspace and old store: the setting now names a parent, and what to do about it. */
function tellOldStore(context: vscode.ExtensionContext, oldStore: string, output: vscode.LogOutputChannel): void {
  const message = vscode.l10n.t(
    "agentRewind.storeDirectory ({0}) is a store from an earlier version: the setting now names a parent folder, so this workspace's recordings go to a new store inside it and the old ones are not shown. Keep using the old store for this workspace, or set storeDirectory to an empty folder (and connect your agents again).",
    oldStore,
  );
  const keepOld = vscode.l10n.t('Keep Using the Old Store');
  const openSettings = vscode.l10n.t('Open Settings');
  output.warn(message);
  if (context.workspaceState.get<string>(TOLD_OLD_STORE) === oldStore) return;
  void context.workspaceState.update(TOLD_OLD_STORE, oldStore);
  void vscode.window.showInformationMessage(message, keepOld, openSettings).then(async (pick) => {
    if (pick === keepOld) {
      await context.workspaceState.update(KEEP_OLD_STORE, oldStore);
      await vscode.commands.executeCommand('workbench.action.reloadWindow');
    } else if (pick === openSettings) await vscode.commands.executeCommand('workbench.action.openSettings', 'agentRewind.storeDirectory');
  });
}

type SetContext = (key: string, value: unknown) => void;

/** Activation's end, whatever came of it: the context keys say the views may show, the API says how long it took. */
function ready(api: AgentRewindApi, setContext: SetContext, t0: number): AgentRewindApi {
  setContext(CTX.ready, true);
  api.activationMs = performance.now() - t0;
  return api;
}

/** No folder open: every command explains instead of failing. */
function installNoFolderCommands(context: vscode.ExtensionContext): void {
  for (const id of Object.values(CMD) as CommandId[]) {
    context.subscriptions.push(
      vscode.commands.registerCommand(id, () =>
        vscode.window.showInformationMessage(vscode.l10n.t('Agent Rewind records agents working in a folder: open a folder first.')),
      ),
    );
  }
}

/** Keeps the store's roots and config in step with VS Code's folders and settings (once the store exists). */
interface StoreSync {
  roots(): void;
  config(): void;
}

function installStoreSync(store: Store, output: vscode.LogOutputChannel, folders: () => readonly vscode.WorkspaceFolder[]): StoreSync {
  // The folders open now are the workspace: store.json keeps every one ever open (their recordings stay
  // rewindable), workspace-folders.json names today's, so a hook in another folder records its file tools only.
  // Both are written once the store exists; until then they wait (the first hook event runs with the defaults,
  // and its own git top-level as the root).
  const roots = () => {
    if (!store.exists()) return;
    const open = folders()
      .filter((f) => f.uri.scheme === 'file')
      .map((f) => realDir(f.uri.fsPath)); // a folder opened through a symlink is the folder it leads to, as hooks record it
    store.addRoots(open);
    writeWorkspaceFolders(store.dir, open);
  };
  // Refused settings are reported once per change: in the output and in the store's errors.log.
  let toldWorkspaceOverrides = false;
  const config = () => {
    if (!store.exists()) return;
    for (const problem of writeStoreConfig(store.dir, readSettings()) ?? []) {
      output.warn(`Settings: ${problem}`);
      store.logError(`settings: ${problem}`);
    }
    if (!toldWorkspaceOverrides && workspaceSetsEffectOverrides()) {
      toldWorkspaceOverrides = true;
      output.warn(
        "Settings: this workspace's agentRewind.effectOverrides is ignored: only your user settings decide what a rewind lists as not undone and which compensation commands it offers.",
      );
    }
  };
  roots();
  config();
  return { roots, config };
}

/** The store's watcher: the model reloads on every change, and when the store first appears the roots and settings go in. */
function installStoreWatcher(store: Store, model: TimelineModel, sync: StoreSync): StoreWatcher {
  // Whether the store existed at the last look.
  let existed = store.exists();
  const watcher = new StoreWatcher(store.dir);
  // On the watcher's own emitter: disposing the watcher (the extension context owns it) drops this listener.
  watcher.onDidChange(() => {
    if (!existed && store.exists()) {
      existed = true;
      sync.roots();
      sync.config();
    }
    model.reload();
  });
  return watcher;
}

/** A rewind that a crash interrupted was finished at activation: offer to undo it. */
function offerUndoOfRecovered(rec: ReturnType<typeof recoverUnfinished>, reporter: RewindReporter): void {
  if (!rec) return;
  void vscode.window
    .showWarningMessage(
      vscode.l10n.t(
        'An interrupted rewind was finished: {0} file(s) had been written, {1} had not. Undo it to get back to how things were before it.',
        rec.written.length,
        rec.notWritten.length,
      ),
      vscode.l10n.t('Undo Interrupted Rewind'),
    )
    .then((p) => (p ? reporter.applyAndReport(rec.checkpoint) : undefined));
}

interface Views {
  viewWorker: WorkerClient;
  lineStats: LineStatsSource;
  files: FilesView;
  filesTree: vscode.TreeView<FilesElement>;
  steps: StepIndex;
  conversation: ConversationView;
  convTree: vscode.TreeView<ConvElement>;
}

/** The Files and Conversation views, fed by a worker thread of their own. */
function installViews(
  context: vscode.ExtensionContext,
  store: Store,
  model: TimelineModel,
  workerFile: string,
  log: (line: string) => void,
): Views {
  // What the views need (transcripts, line counts of file rows) is made in a worker thread of its own,
  // so a long clean-up in the other never holds the views up.
  const viewWorker = new WorkerClient(workerFile, log, {
    name: 'view',
    fallback: 'transcripts and line counts are made on the extension host, which may pause the window while a long transcript is read.',
  });
  const statsReady = new vscode.EventEmitter<void>();
  const lineStats = new LineStatsSource(store, viewWorker, () => statsReady.fire());
  const rowStats: RowStats = { of: (c) => lineStats.get(c.from?.hash ?? null, c.to.hash), onReady: statsReady.event };
  context.subscriptions.push({ dispose: () => viewWorker.dispose() }, statsReady);
  const files = new FilesView(model, rowStats);
  const filesTree = vscode.window.createTreeView<FilesElement>(VIEW.files, { treeDataProvider: files, showCollapseAll: true });
  files.tree = filesTree;
  const source = new ConversationSource(store, new TranscriptReader(viewWorker));
  const steps = new StepIndex(() => model.all);
  const conversation = new ConversationView(
    // Before the model's first load (showTimeline), no sessions: asking would read the log during activation.
    { prepare: () => source.prepare(loggedSessions(model)), build: () => source.build(loggedSessions(model)) },
    model.onDidChange,
    (p) => model.relative(p),
    { index: steps, stats: rowStats },
    (work) =>
      void vscode.window.withProgress({ location: { viewId: VIEW.conversation }, title: vscode.l10n.t('Reading transcripts') }, () => work),
  );
  installTranscriptPoll(context, source, conversation);
  const convTree = vscode.window.createTreeView<ConvElement>(VIEW.conversation, { treeDataProvider: conversation, showCollapseAll: true });
  return { viewWorker, lineStats, files, filesTree, steps, conversation, convTree };
}

/** The sessions the log names, or none while the model has not read the log yet (it says so on change). */
const loggedSessions = (model: TimelineModel) => (model.loading ? [] : model.sessions());

/** Transcripts grow without a hook event (assistant replies): notice it with a cheap stat poll. */
function installTranscriptPoll(context: vscode.ExtensionContext, source: ConversationSource, conversation: ConversationView): void {
  let printed = source.fingerprint(conversation.all);
  const transcriptPoll = setInterval(() => {
    const now = source.fingerprint(conversation.all);
    if (now !== printed) {
      printed = now;
      void conversation.refresh();
    }
  }, 2000);
  context.subscriptions.push({ dispose: () => clearInterval(transcriptPoll) });
}

/** Connecting agents: the hooks' stable copy of the CLI (made on first need), Claude's connection and the others'. */
function installConnections(context: vscode.ExtensionContext, store: Store, output: vscode.LogOutputChannel) {
  let cliPath: string | undefined;
  const cli = () =>
    (cliPath ??= installCli(context.extensionPath, context.globalStorageUri.fsPath, String(context.extension.packageJSON.version)));
  return { cli, claude: new ClaudeConnection(cli, store.dir), agents: new AgentConnections(cli, store.dir, output) };
}

/** The context keys the menus and welcome views go by, and the status bar, refreshed together. */
function installContextKeys(
  model: TimelineModel,
  conversation: ConversationView,
  agents: AgentConnections,
  folders: () => readonly vscode.WorkspaceFolder[],
  setContext: SetContext,
): { status: StatusBar; update: () => void; connected: () => Recording[]; owned: vscode.Disposable } {
  let connected: Recording[] = [];
  const status = new StatusBar(model, () => connected);
  const update = () => {
    const on = agents.connected(folders());
    connected = agents.recording(folders());
    setContext(CTX.claudeConnected, on.includes('claude'));
    setContext(CTX.agentsConnected, on.length > 0);
    for (const a of ['claude', 'vscode', 'cursor', 'cline', 'codex', 'gemini'])
      setContext(`agentRewind.connected.${a}`, on.includes(a as never));
    setContext(CTX.hasCheckpoints, model.checkpoints.length > 0);
    setContext(CTX.hasSessions, conversation.all.length > 0);
    setContext(CTX.canUndo, !!model.lastRewind());
    status.update();
  };
  // The status bar goes with the context keys: one disposable for both (the extension context owns it).
  const onModel = model.onDidChange(update);
  const owned: vscode.Disposable = { dispose: () => (onModel.dispose(), status.dispose()) };
  return { status, update, connected: () => connected, owned };
}

/** A changed storeDirectory takes effect after a reload: say so. */
function onStoreDirectoryChange(context: vscode.ExtensionContext, store: Store): void {
  if (storeDirFor(context)?.dir === store.dir) return;
  void vscode.window
    .showInformationMessage(
      vscode.l10n.t(
        'Agent Rewind will use the new store folder after a reload. Connected agents keep recording to the old one until you connect them again.',
      ),
      vscode.l10n.t('Reload Window'),
    )
    .then((p) => p && vscode.commands.executeCommand('workbench.action.reloadWindow'));
}

/** What follows VS Code's own events: a prompt selected, settings changed, folders added or removed. */
function installWorkspaceListeners(
  context: vscode.ExtensionContext,
  store: Store,
  convTree: vscode.TreeView<ConvElement>,
  sync: StoreSync,
  updateContext: () => void,
): vscode.Disposable[] {
  return [
    vscode.workspace.registerTextDocumentContentProvider(SNAPSHOT_SCHEME, new SnapshotContentProvider(() => store)),
    // Selecting a prompt reveals the file checkpoint taken when it was submitted.
    convTree.onDidChangeSelection((e) => {
      const el = e.selection[0];
      if (el?.kind === 'prompt' && el.prompt.checkpointId) void vscode.commands.executeCommand(CMD.revealCheckpoint, el);
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('agentRewind')) sync.config();
      if (e.affectsConfiguration('agentRewind.storeDirectory')) onStoreDirectoryChange(context, store);
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => {
      sync.roots();
      updateContext();
    }),
  ];
}

/** Terminals started in VS Code find the store too (`agent-rewind checkpoints` just works). */
function installTerminalEnv(context: vscode.ExtensionContext, store: Store): void {
  const env = context.environmentVariableCollection;
  env.description = vscode.l10n.t("Lets `agent-rewind` in this terminal find this workspace's recordings.");
  if (env.get(STORE_ENV)?.value !== store.dir) env.replace(STORE_ENV, store.dir);
}

/**
 * Reads the log once activation has returned, so the views are registered and say `loading` (TreeView.message) while
 * a long log is read (a second at 10,000 checkpoints); then `then` (the context keys: "no checkpoints" is not said before).
 */
function showTimeline(model: TimelineModel, trees: vscode.TreeView<unknown>[], loading: string, then: () => void): void {
  setTimeout(() => {
    try {
      if (model.loading) model.reload();
    } finally {
      for (const t of trees) if (t.message === loading) t.message = undefined;
      then();
    }
  }, 0);
}

/** Later, off activation's path: the hooks' CLI copy refreshed after an update, and the daily clean-up. */
function scheduleUpkeep(
  context: vscode.ExtensionContext,
  store: Store,
  storage: StorageCommands,
  connections: { cli: () => string; connected: () => Recording[] },
  output: vscode.LogOutputChannel,
): void {
  // Refresh the stable CLI copy after an update, so connected hooks run the new version.
  setTimeout(() => {
    try {
      if (connections.connected().length) connections.cli();
    } catch (e) {
      output.warn(`Could not refresh the hook CLI copy: ${(e as Error).message}`);
    }
  }, 2000).unref?.();
  const settings = readSettings();
  const lastGc = context.workspaceState.get<number>('agentRewind.lastCleanUp', 0);
  if (settings.autoCleanUp && Date.now() - lastGc > 86400000 && store.exists()) {
    setTimeout(() => {
      void context.workspaceState.update('agentRewind.lastCleanUp', Date.now());
      void storage.cleanUp(true);
    }, 30000).unref?.();
  }
}

/** Opens this workspace's store, or says why there is none; undefined: activation ends here. */
function openStore(context: vscode.ExtensionContext, output: vscode.LogOutputChannel): Store | undefined {
  const where = storeDirFor(context);
  const storeDir = where?.dir;
  if (where?.oldStore) tellOldStore(context, where.oldStore, output);
  try {
    // Never created here: opening a folder records nothing; the first hook event makes the store.
    const store = storeDir ? Store.open(storeDir, { notYet: true }) : undefined;
    if (!store) installNoFolderCommands(context);
    return store;
  } catch (e) {
    // Any failure to open it (damaged or newer store.json, a folder that is not a store): say so, change nothing.
    context.subscriptions.push(...showStoreUnusable(storeDir!, e as Error, output));
    return undefined;
  }
}

/** The composition root: each installer sets up one part and hands on what the next ones need. */
export function activate(context: vscode.ExtensionContext): AgentRewindApi {
  const t0 = performance.now();
  const api: AgentRewindApi = { storeDir: undefined, activationMs: 0 };
  // A log channel: levels and timestamps by VS Code, and the user's chosen log level decides what shows.
  const output = vscode.window.createOutputChannel('Agent Rewind', { log: true });
  context.subscriptions.push(output);
  const setContext: SetContext = (key, value) => void vscode.commands.executeCommand('setContext', key, value);
  const store = openStore(context, output);
  if (!store) return ready(api, setContext, t0);
  api.storeDir = store.dir;
  const folders = () => vscode.workspace.workspaceFolders ?? [];
  const sync = installStoreSync(store, output, folders);
  const recovered = recoverUnfinished(store);
  const busy = new Busy();
  // The log is read after activation (showTimeline): the views are there first, saying they are loading.
  const model = new TimelineModel(store, folders, { loadLater: true });
  const watcher = installStoreWatcher(store, model, sync);
  const workerFile = path.join(context.extensionPath, 'dist', 'offHostWorker.js');
  const log = (line: string) => output.info(line);
  const views = installViews(context, store, model, workerFile, log);
  const { files, filesTree, steps, conversation, convTree } = views;
  const loading = vscode.l10n.t('Loading the timeline…');
  filesTree.message = loading;
  convTree.message = loading;
  // Dry runs (the preview's plan, line statistics, git status), clean-up and storage counts run in a worker thread, off the host.
  const planner = new WorkerClient(workerFile, log);
  context.subscriptions.push({ dispose: () => planner.dispose() });
  const service = new RewindService(store, model, planner);
  const reporter = new RewindReporter(service, busy, model, output);
  offerUndoOfRecovered(recovered, reporter);
  const rewinder = new ClaudeConversationRewinder(store, model, () => void conversation.refresh(), output);
  const preview = new PreviewPanel(context.extensionUri, model, service, reporter, rewinder);
  const storage = new StorageCommands(store, model, busy, readSettings, output, planner);
  const { cli, claude, agents } = installConnections(context, store, output);
  const keys = installContextKeys(model, conversation, agents, folders, setContext);
  const updateContext = keys.update;
  const deps = {
    store,
    model,
    busy,
    files,
    filesTree,
    conversation,
    steps,
    preview,
    reporter,
    service,
    storage,
    claude,
    agents,
    output,
    updateContext,
  };
  // Views before the model they listen to: each drops its listeners, then the model its emitter.
  context.subscriptions.push(keys.owned, files, conversation, filesTree, convTree, preview, watcher, model);
  context.subscriptions.push(...installWorkspaceListeners(context, store, convTree, sync, updateContext), ...registerCommands(deps));
  installTerminalEnv(context, store);
  showTimeline(model, [filesTree, convTree], loading, () => {
    updateContext();
    setContext(CTX.ready, true);
    // The host read the log itself: the index the previews' dry runs read is brought up to date meanwhile, off the host.
    if (store.exists())
      void planner.index(store.dir).catch((e: unknown) => log(`The timeline index was not brought up to date: ${(e as Error).message}`));
  });
  scheduleUpkeep(context, store, storage, { cli, connected: keys.connected }, output);
  const { viewWorker, lineStats } = views;
  Object.assign(api, {
    model,
    files,
    conversation,
    steps,
    preview,
    service,
    planner,
    viewWorker,
    lineStats,
    rewinder,
    status: keys.status,
    agents,
  });
  api.activationMs = performance.now() - t0;
  output.info(`Agent Rewind ${context.extension.packageJSON.version} active in ${api.activationMs.toFixed(1)} ms; store ${store.dir}`);
  return api;
}

export function deactivate(): void {}
