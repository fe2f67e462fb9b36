// Types of aptPlan.mjs, for the TypeScript that imports it (its unit test).

export interface AptPlan {
  installs: { name: string; version: string }[];
  upgrades: { name: string; from: string; to: string }[];
  removals: { name: string; version: string }[];
}
export function parseAptSimulation(text: string): AptPlan;
export function describeAptPlan(plan: AptPlan): string[];
export const ALLOW_UPGRADES: string;
export function isRevisionUpdate(u: { from: string; to: string }): boolean;
export function aptDecision(plan: AptPlan, opts: { ci: boolean; tty: boolean; allowUpgrades: boolean }): 'install' | 'ask' | 'stop';
