// What an `apt-get install` would do to this system, read from its simulation (`apt-get -s`), and
// whether the first run may go ahead. `--no-upgrade` only holds back the packages named on the command
// line: a dependency can still upgrade an installed package (apt-utils upgrades apt, for one), so the
// simulation is what the user is shown — every new package and every installed one that would change.
// Pure: tools.mjs runs apt-get; test/unit/aptPlan.test.ts feeds this recorded output.

/**
 * The simulation's actions: `Inst name (version …)` installs a new package, `Inst name [old] (new …)`
 * upgrades (or downgrades) an installed one, `Remv name [old]` removes one. `Conf` lines repeat the
 * `Inst` ones and are skipped.
 */
export function parseAptSimulation(text) {
  const installs = [];
  const upgrades = [];
  const removals = [];
  for (const line of text.split('\n')) {
    const inst = /^Inst (\S+) (?:\[([^\]]+)\] )?\((\S+)/.exec(line);
    if (inst) {
      const [, name, from, to] = inst;
      if (from) upgrades.push({ name, from, to });
      else installs.push({ name, version: to });
      continue;
    }
    const remv = /^Remv (\S+)(?: \[([^\]]+)\])?/.exec(line);
    if (remv) removals.push({ name: remv[1], version: remv[2] ?? '' });
  }
  return { installs, upgrades, removals };
}

/** The simulation in lines a person reads before anything is done. */
export function describeAptPlan(plan) {
  const lines = [];
  if (plan.installs.length)
    lines.push(
      `${plan.installs.length} new package(s) would be installed: ${plan.installs.map((p) => `${p.name} ${p.version}`).join(', ')}`,
    );
  if (plan.upgrades.length)
    lines.push(
      `${plan.upgrades.length} installed package(s) would be UPGRADED as dependencies: ${plan.upgrades.map((p) => `${p.name} ${p.from} -> ${p.to}`).join(', ')}`,
    );
  if (plan.removals.length)
    lines.push(`${plan.removals.length} installed package(s) would be REMOVED: ${plan.removals.map((p) => p.name).join(', ')}`);
  if (!lines.length) lines.push('Nothing would be installed, upgraded or removed.');
  return lines;
}

/** The variable that lets an unattended run (CI=true) upgrade or remove installed packages. */
export const ALLOW_UPGRADES = 'AGENT_REWIND_ALLOW_UPGRADES';

/**
 * A Debian version without its revision: `[epoch:]upstream[-revision]`, and for a native package
 * (no revision) without a `+debNNuN` / `+bN` security or rebuild suffix.
 */
function upstreamOf(version) {
  const dash = version.lastIndexOf('-');
  return dash > 0 ? version.slice(0, dash) : version.replace(/(\+deb\d+u\d+|\+b\d+)+$/, '');
}

/**
 * An upgrade that keeps the upstream version: a security fix or rebuild of the same release (the
 * `+deb12u5` of `1.20.1-2+deb12u5`), what `apt-get upgrade` would bring anyway. A fresh machine
 * whose package lists are newer than its installed packages meets these on the first install.
 */
export function isRevisionUpdate(u) {
  return upstreamOf(u.from) === upstreamOf(u.to);
}

/**
 * Whether the first run installs without asking: only with CI=true, and then only when nothing
 * installed would be removed and every upgrade is a revision update of the same upstream version,
 * unless AGENT_REWIND_ALLOW_UPGRADES=1. 'ask' on a terminal; 'stop' otherwise.
 */
export function aptDecision(plan, { ci, tty, allowUpgrades }) {
  const changesInstalled = plan.upgrades.some((u) => !isRevisionUpdate(u)) || plan.removals.length > 0;
  if (ci) return !changesInstalled || allowUpgrades ? 'install' : 'stop';
  return tty ? 'ask' : 'stop';
}
