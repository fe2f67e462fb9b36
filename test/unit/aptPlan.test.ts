// The first run's system-package step reads apt's own simulation: recorded `apt-get -s install
// --no-upgrade --no-install-recommends` output (test/fixtures/apt/README.md) with installed packages
// upgraded as dependencies, with new packages only, and with nothing to do.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { aptDecision, describeAptPlan, isRevisionUpdate, parseAptSimulation } from '../../scripts/aptPlan.mjs';

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

  it('CI goes ahead when the only upgrades are revision updates of the same upstream version (security fixes, rebuilds)', () => {
    // Seen on a fresh machine of this kind: the code-server build headers pull newer security revisions of installed libraries.
    const security = parseAptSimulation(
      [
        'Inst libkrb5support0 [1.20.1-2+deb12u3] (1.20.1-2+deb12u5 Debian-Security:12/stable-security [amd64])',
        'Inst libext2fs2 [1.47.0-2] (1.47.0-2+b2 Debian:12.13/stable [amd64])',
        'Inst libpcre2-8-0 [10.42-1] (10.42-1+deb12u2 Debian:12.13/stable [amd64])',
        'Inst libkrb5-dev (1.20.1-2+deb12u5 Debian-Security:12/stable-security [amd64])',
      ].join('\n'),
    );
    assert.equal(security.upgrades.length, 3);
    assert.ok(security.upgrades.every(isRevisionUpdate));
    const ci = { ci: true, tty: false, allowUpgrades: false };
    assert.equal(aptDecision(security, ci), 'install');
    assert.equal(aptDecision(security, { ci: false, tty: false, allowUpgrades: false }), 'stop', 'without CI: still asks or stops');
    // A new upstream version is not a revision update, nor is a native package's new version.
    assert.equal(isRevisionUpdate({ from: '2.6.1', to: '2.6.2' }), false);
    assert.equal(isRevisionUpdate({ from: '1:2.39.5-0+deb12u1', to: '1:2.40.0-1' }), false);
    assert.equal(isRevisionUpdate({ from: '1.2.3', to: '1.2.3+deb12u1' }), true);
    const mixed = { ...security, upgrades: [...security.upgrades, { name: 'apt', from: '2.6.1', to: '2.6.2' }] };
    assert.equal(aptDecision(mixed, ci), 'stop');
  });
});
