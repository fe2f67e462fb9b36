// What every command handler is given by the composition root (extension.ts): one type, imported by
// commands.ts and stepCommands.ts alike (so neither imports the other for it).
import type * as vscode from 'vscode';
import type { Store } from '../../core/store';
import type { AgentConnections } from '../connect/agentConnections';
import type { Busy } from '../rewind/busy';
import type { ClaudeConnection } from '../connect/claudeConnection';
import type { ConversationView } from '../views/conversationView';
import type { FilesElement, FilesView } from '../views/filesView';
import type { PreviewPanel } from '../preview/previewPanel';
import type { RewindReporter } from '../rewind/rewindReporter';
import type { RewindService } from '../rewind/rewindService';
import type { StepIndex } from '../model/stepIndex';
import type { StorageCommands } from './storageCommands';
import type { TimelineModel } from '../model/timelineModel';

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
  output: vscode.LogOutputChannel;
  updateContext: () => void;
}
