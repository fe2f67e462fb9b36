// apt is a step like the others in `npm start` and the tools script: one line per apt-get run with
// its measured time, the whole apt and dpkg output in a log under the tools folder, its last lines on
// failure. Run through scripts/tools.mjs's own aptInstall with a stub apt-get first on PATH (nothing
// is installed on this machine).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { tempDir } from '../helpers/tmp';

const TOOLS = pathToFileURL(path.resolve(__dirname, '../../scripts/tools.mjs')).href;

/** A stub apt-get: a simulation that installs one package, and an update and install as noisy as the real ones. */
function stubApt(installExit: number): string {
  const bin = tempDir('ar-apt-');
  fs.writeFileSync(
    path.join(bin, 'apt-get'),
    [
      '#!/bin/sh',
      'case "$1" in',
      '  -s) echo "NOTE: This is only a simulation!"; echo "Inst demo-pkg (1.0-1 Debian:12/stable [amd64])"; echo "Conf demo-pkg (1.0-1 Debian:12/stable [amd64])" ;;',
      '  update) for i in $(seq 1 40); do echo "Get:$i http://deb.debian.org/debian bookworm InRelease"; done ;;',
      '  install) for i in $(seq 1 160); do echo "Unpacking demo-pkg-part-$i (1.0-1) ..."; done; echo "debconf: delaying package configuration" >&2; echo "Setting up demo-pkg (1.0-1) ..."; exit ' +
        installExit +
        ' ;;',
      'esac',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  return bin;
}

function install(installExit: number) {
  const bin = stubApt(installExit);
  const tools = tempDir('ar-tools-');
  const script = `import { aptInstall } from ${JSON.stringify(TOOLS)};
try { aptInstall(['demo-pkg'], 'A test needs demo-pkg', { root: true }); } catch (e) { process.stderr.write('ERROR ' + e.message + '\\n'); process.exit(1); }`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, CI: 'true', AGENT_REWIND_TOOLS_DIR: tools },
  });
  const logs = path.join(tools, 'logs');
  const files = fs.existsSync(logs) ? fs.readdirSync(logs) : [];
  return { ...r, logs, files, log: files.length === 1 ? fs.readFileSync(path.join(logs, files[0]!), 'utf8') : '' };
}

describe('aptInstall', () => {
  it('prints one timed line per apt-get run and the plan; all of apt and dpkg goes to one log in the tools folder', () => {
    const r = install(0);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, '');
    const lines = r.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 4, r.stderr);
    assert.match(lines[0]!, /^\[tools\] apt-get update \(.*\): done in \d+s \(full output in .*\/logs\/apt-[^/]+\.log\)$/);
    assert.match(lines[1]!, /^\[tools\] A test needs demo-pkg\. apt-get install .* would change this system as follows:$/);
    assert.match(lines[2]!, /^\[tools\] {3}1 new package\(s\) would be installed: demo-pkg 1\.0-1$/);
    assert.match(lines[3]!, /^\[tools\] apt-get install demo-pkg: done in \d+s \(full output in .*\/logs\/apt-[^/]+\.log\)$/);
    assert.doesNotMatch(r.stderr, /Unpacking|Get:|Setting up|debconf/);
    assert.equal(r.files.length, 1);
    assert.equal(r.log.split('\n').filter((l) => l.startsWith('Unpacking demo-pkg-part-')).length, 160);
    assert.equal(r.log.split('\n').filter((l) => l.startsWith('Get:')).length, 40);
    assert.match(r.log, /^debconf: delaying package configuration$/m);
  });

  it('a failed install shows the log’s last lines and where the whole of it is, and fails', () => {
    const r = install(100);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /apt-get install demo-pkg: FAILED after \d+s \(exit 100\)/);
    assert.match(r.stderr, /^Setting up demo-pkg \(1\.0-1\) \.\.\.$/m);
    assert.doesNotMatch(r.stderr, /Unpacking demo-pkg-part-1 /, 'only the last lines');
    assert.match(r.stderr, /ERROR apt-get install demo-pkg failed; its whole output is in .*\/logs\/apt-[^/]+\.log/);
  });
});
