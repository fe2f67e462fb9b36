// The first run's system-package step reads apt's own simulation: recorded `apt-get -s install
// --no-upgrade --no-install-recommends` output (test/fixtures/apt/README.md) with installed packages
// upgraded as dependencies, with new packages only, and with nothing to do.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { aptDecision, describeAptPlan, parseAptSimulation } from '../../scripts/aptPlan.mjs';

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'apt', name), 'utf8');

describe('apt simulation', () => {
  it('finds the installed packages a dependency upgrades although --no-upgrade was given', () => {
    const plan = parseAptSimulation(fixture('with-upgrades.txt'));
    assert.deepEqual(plan.installs, [{ name: 'apt-utils', version: '2.6.2' }]);
    assert.deepEqual(plan.upgrades, [
      { name: 'libapt-pkg6.0', from: '2.6.1', to: '2.6.2' },
      { name: 'apt', from: '2.6.1', to: '2.6.2' },
      { name: 'apt-transport-https', from: '2.6.1', to: '2.6.2' },
    ]);
    assert.deepEqual(plan.removals, []);
    const text = describeAptPlan(plan).join('\n');
    assert.match(text, /1 new package\(s\) would be installed: apt-utils 2\.6\.2/);
    assert.match(
      text,
      /3 installed package\(s\) would be UPGRADED as dependencies: libapt-pkg6\.0 2\.6\.1 -> 2\.6\.2, apt 2\.6\.1 -> 2\.6\.2/,
    );
  });

  it('lists new packages only when nothing installed changes, and says when there is nothing to do', () => {
    const plan = parseAptSimulation(fixture('new-only.txt'));
    assert.deepEqual(
      plan.installs.map((p) => p.name),
      ['libxfont2', 'x11-xkb-utils', 'xserver-common', 'xvfb'],
    );
    assert.deepEqual(plan.upgrades, []);
    const none = parseAptSimulation(fixture('already.txt'));
    assert.deepEqual(none, { installs: [], upgrades: [], removals: [] });
    assert.deepEqual(describeAptPlan(none), ['Nothing would be installed, upgraded or removed.']);
  });

  it('CI installs only when nothing installed would change, or when upgrades are allowed by name; otherwise it asks or stops', () => {
    const upgrades = parseAptSimulation(fixture('with-upgrades.txt'));
    const fresh = parseAptSimulation(fixture('new-only.txt'));
    const removes = parseAptSimulation('Remv libfoo1 [1.0]\nInst libfoo2 (2.0 Debian:12 [amd64])\n');
    assert.deepEqual(removes.removals, [{ name: 'libfoo1', version: '1.0' }]);
    const ci = { ci: true, tty: false, allowUpgrades: false };
    assert.equal(aptDecision(fresh, ci), 'install');
    assert.equal(aptDecision(upgrades, ci), 'stop');
    assert.equal(aptDecision(removes, ci), 'stop');
    assert.equal(aptDecision(upgrades, { ...ci, allowUpgrades: true }), 'install');
    assert.equal(aptDecision(fresh, { ci: false, tty: true, allowUpgrades: false }), 'ask');
    assert.equal(aptDecision(fresh, { ci: false, tty: false, allowUpgrades: true }), 'stop');
  });
});
