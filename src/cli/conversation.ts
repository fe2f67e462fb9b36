// `agent-rewind conversation show|fork` — filled in by the conversation work (issue 4).
import type { Store } from '../core/store';
import { UsageError } from './output';

export function runConversation(_args: string[], _openStore: (args: string[], create?: boolean) => Store): number {
  throw new UsageError('conversation commands are not built yet.');
}
