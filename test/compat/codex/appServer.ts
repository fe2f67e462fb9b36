// The app-server client lives in src/agents/codex/appServer.ts (Connect trusts our hooks with it);
// explore.ts and the compat tier use it from there.
export { AppServer, type HookListEntry, type HooksList } from '../../../src/agents/codex/appServer';
