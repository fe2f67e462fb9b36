// Preloaded (`node --require`) into a code-server older than 4.100, whose command line has no
// `--vscode-option` to pass VS Code's `--enable-smoke-test-driver` through, and refuses any option it
// does not list. Its parser keeps every option it knows and hands them all to the VS Code server
// (cli.js toCodeArgs), so listing this one VS Code option is enough: the workbench then reads the
// extension-under-test's paths from the URL's `payload`, as on the newest code-server.
'use strict';
const path = require('node:path');

const entry = process.argv[1];
if (entry && path.basename(entry) === 'entry.js') {
  const cli = require(path.join(path.dirname(entry), 'cli.js'));
  cli.options['enable-smoke-test-driver'] ??= { type: 'boolean', description: 'VS Code: enable the smoke-test driver.' };
}
