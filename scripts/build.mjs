// Builds every bundle with esbuild: the extension, the CLI entry, the hook path (kept small: it
// runs on every agent tool call), the other CLI commands, and the webview script.
//   node scripts/build.mjs [--production] [--watch]
import * as esbuild from 'esbuild';
import { readFileSync } from 'node:fs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node18',
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  define: { __AGENT_REWIND_VERSION__: JSON.stringify(pkg.version) },
  legalComments: 'none',
};

const builds = [
  // The CLI entry stays tiny: it requires hook.js or commands.js at run time.
  { ...common, entryPoints: { cli: 'src/cli/main.ts' }, outdir: 'dist', external: ['./hook.js', './commands.js'], banner: { js: '#!/usr/bin/env node' } },
  { ...common, entryPoints: { hook: 'src/cli/hook.ts' }, outdir: 'dist' },
  { ...common, entryPoints: { commands: 'src/cli/commands.ts' }, outdir: 'dist' },
  { ...common, entryPoints: { extension: 'src/extension/extension.ts' }, outdir: 'dist', external: ['vscode'] },
];

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
  console.log('watching…');
} else {
  const results = await Promise.all(builds.map((b) => esbuild.build({ ...b, metafile: true })));
  for (const r of results) {
    for (const [file, info] of Object.entries(r.metafile.outputs)) {
      if (file.endsWith('.js')) console.log(`${file.padEnd(28)} ${(info.bytes / 1024).toFixed(1).padStart(7)} KB`);
    }
  }
}
