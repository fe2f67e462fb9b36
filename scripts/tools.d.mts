// Types of tools.mjs, for the TypeScript that imports it (test/unit/enginesVscode.test.ts).

/** A pinned code-server release: its version, the VS Code it ships, the Node it runs on, its folder in the tools cache. */
export interface CodeServerRelease {
  version: string;
  vscode: string;
  nodeMajor: number;
  folder: string;
}
export const NEWEST: CodeServerRelease;
export const OLDEST: CodeServerRelease;
export function selectedRelease(): CodeServerRelease;
