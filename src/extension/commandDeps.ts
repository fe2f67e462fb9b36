// What every command handler is given by the composition root (extension.ts): one type, imported by
// commands.ts and stepCommands.ts alike (so neither imports the other for it).
import type * as vscode from 'vscode';
import type { Store } from '../core/store';
import type { AgentConnections } from './agentConnect';
import type { Busy } from './busy';
import type { ClaudeConnection } from './claudeConnect';
import type { ConversationView } from './conversationView';
import type { FilesElement, FilesView } from './filesView';
import type { PreviewPanel } from './previewPanel';
import type { RewindReporter } from './rewindReporter';
import type { RewindService } from './rewindService';
import type { StepIndex } from './stepIndex';
import type { StorageCommands } from './storageCommands';
import type { TimelineModel } from './timelineModel';

export interface CommandDeps {
  store: Store;
  model: TimelineModel;
  busy: Busy;
  files: FilesView;
  filesTree: vscode.TreeView<FilesElement>;
  conversation: ConversationView;
  steps: StepIndex;
  preview: PreviewPanel;
  reporter: RewindReporter;
  service: RewindService;
  storage: StorageCommands;
  claude: ClaudeConnection;
  agents: AgentConnections;
  output: vscode.OutputChannel;
  updateContext: () => void;
}
