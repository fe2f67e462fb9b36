// Types of agentFixtureHooks.mjs, for the TypeScript that imports it (the integration suite).

/** Sends one fixture payload (path under test/fixtures/agents/) through `hook <agent>`; `patch` edits it first. Returns what was sent. */
export type SendFixture = (rel: string, patch?: (payload: any) => void) => any;

export function agentFixtureHooks(opts: {
  repoRoot: string;
  store: string;
  workspace: string;
  home?: string;
  agent: string;
  session?: string;
  env?: NodeJS.ProcessEnv;
}): SendFixture;
