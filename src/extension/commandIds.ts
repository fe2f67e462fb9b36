// Every command id in one typed place; a test checks this list against package.json.

export const CMD = {
  rewindFilesToHere: 'agentRewind.rewindFilesToHere',
  previewRewind: 'agentRewind.previewRewind',
  rewindToFolded: 'agentRewind.rewindToFolded',
  restoreFile: 'agentRewind.restoreFile',
  undoLastRewind: 'agentRewind.undoLastRewind',
  rewindConversation: 'agentRewind.rewindConversation',
  rewindBoth: 'agentRewind.rewindBoth',
  rewindFilesBeforePrompt: 'agentRewind.rewindFilesBeforePrompt',
  createCheckpoint: 'agentRewind.createCheckpoint',
  refresh: 'agentRewind.refresh',
  connectAgents: 'agentRewind.connectAgents',
  disconnectAgents: 'agentRewind.disconnectAgents',
  connectClaude: 'agentRewind.connectClaude',
  disconnectClaude: 'agentRewind.disconnectClaude',
  showStorage: 'agentRewind.showStorage',
  cleanUp: 'agentRewind.cleanUp',
  deleteAllData: 'agentRewind.deleteAllData',
  openFileDiff: 'agentRewind.openFileDiff',
  revealCheckpoint: 'agentRewind.revealCheckpoint',
  rewindFilesBeforeStep: 'agentRewind.rewindFilesBeforeStep',
  restoreFileBeforeStep: 'agentRewind.restoreFileBeforeStep',
  openStepFileDiff: 'agentRewind.openStepFileDiff',
  filterCheckpoints: 'agentRewind.filterCheckpoints',
  clearFilter: 'agentRewind.clearFilter',
  loadMore: 'agentRewind.loadMore',
  revealStoreFolder: 'agentRewind.revealStoreFolder',
  moveStoreAside: 'agentRewind.moveStoreAside',
  compareWithCurrent: 'agentRewind.compareWithCurrent',
  compareWith: 'agentRewind.compareWith',
  switchToAttempt: 'agentRewind.switchToAttempt',
  takeFromAttempt: 'agentRewind.takeFromAttempt',
} as const;

export type CommandId = (typeof CMD)[keyof typeof CMD];

/** Context keys our `when` clauses read. */
export const CTX = {
  busy: 'agentRewind.busy',
  ready: 'agentRewind.ready',
  hasCheckpoints: 'agentRewind.hasCheckpoints',
  hasSessions: 'agentRewind.hasSessions',
  canUndo: 'agentRewind.canUndo',
  claudeConnected: 'agentRewind.claudeConnected',
  filtered: 'agentRewind.filtered',
  /** Any agent connected in any folder; `agentRewind.connected.<agent>` per agent (the welcome view lists them). */
  agentsConnected: 'agentRewind.agentsConnected',
  storeUnusable: 'agentRewind.storeUnusable',
} as const;

export const VIEW = { files: 'agentRewind.files', conversation: 'agentRewind.conversation' } as const;
