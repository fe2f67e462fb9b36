// Builds every bundle with esbuild: the extension and its plan worker, the CLI entry, the hook path (kept small: it
// runs on every agent tool call), the other CLI commands, and the webview script.
//   node scripts/build.mjs [--production] [--watch]
import * as esbuild from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// `import * as fs from 'node:fs'` in each of ~60 source files becomes a copy of the whole module object per file
// (esbuild's __toESM), made at every start: thousands of property copies on the hook path. Each builtin is
// re-exported once from a module inside the bundle instead, which every importer shares.
const BUILTINS_SHARED = /^node:(fs|path|crypto|os|child_process)$/;
const sharedBuiltins = {
  name: 'shared-builtins',
  setup(b) {
    b.onResolve({ filter: BUILTINS_SHARED }, (args) =>
      args.namespace === 'shared-builtin' ? { path: args.path, external: true } : { path: args.path, namespace: 'shared-builtin' },
    );
    b.onLoad({ filter: /.*/, namespace: 'shared-builtin' }, (args) => ({
      contents: `export * from ${JSON.stringify(args.path)};`,
      loader: 'js',
    }));
  },
};

// Each agent's adapter (src/agents/<id>/index.ts) loads its parts when first asked for: its payload parser
// (`./hookPayload`), connector (`./connect`) and conversation (`./conversation`). A bundle that never asks for
// a part leaves it out altogether (asking for one there throws): the hook path, run on every agent tool
// call, parses payloads only; the plan worker reads transcripts only; the extension and the other CLI
// commands never parse a payload.
const leaveOut = (...parts) => ({
  name: 'adapter-parts-left-out',
  setup(b) {
    const filter = new RegExp(`^\\./(${parts.join('|')})$`);
    b.onResolve({ filter }, (args) =>
      /[\\/]src[\\/]agents[\\/][^\\/]+[\\/]index\.ts$/.test(args.importer) ? { path: args.path, namespace: 'left-out' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'left-out' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`${args.path} is not in this bundle (scripts/build.mjs)`)});`,
      loader: 'js',
    }));
  },
});

const common = {
  plugins: [sharedBuiltins],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node18',
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  define: { __AGENT_REWIND_VERSION__: JSON.stringify(pkg.version) },
  legalComments: 'none',
  // jsonc-parser's UMD `main` requires its own files at run time; its ESM build bundles whole.
  mainFields: ['module', 'main'],
};

const builds = [
  // The CLI entry stays tiny: it requires hook.js or commands.js at run time.
  {
    ...common,
    entryPoints: { cli: 'src/cli/main.ts' },
    outdir: 'dist',
    external: ['./hook.js', './commands.js'],
    banner: { js: '#!/usr/bin/env node' },
  },
  {
    ...common,
    plugins: [...common.plugins, leaveOut('connect', 'conversation')],
    entryPoints: { hook: 'src/cli/hook.ts' },
    outdir: 'dist',
  },
  { ...common, plugins: [...common.plugins, leaveOut('hookPayload')], entryPoints: { commands: 'src/cli/commands.ts' }, outdir: 'dist' },
  {
    ...common,
    plugins: [...common.plugins, leaveOut('hookPayload')],
    entryPoints: { extension: 'src/extension/extension.ts' },
    outdir: 'dist',
    external: ['vscode'],
  },
  // The extension's plan worker (a worker thread: dry runs off the extension host).
  {
    ...common,
    plugins: [...common.plugins, leaveOut('hookPayload', 'connect')],
    entryPoints: { offHostWorker: 'src/extension/offHost/worker.ts' },
    outdir: 'dist',
  },
  // The preview webview script (a browser bundle); with @vscode/codicons installed, its font is copied beside it.
  {
    ...common,
    platform: 'browser',
    format: 'iife',
    target: 'chrome120',
    entryPoints: { 'webview/preview': 'src/webview/main.ts' },
    outdir: 'dist',
    plugins: [
      {
        name: 'codicons',
        setup: (b) =>
          b.onEnd(async () => {
            const fs = await import('node:fs');
            const from = new URL('../node_modules/@vscode/codicons/dist/', import.meta.url);
            const to = new URL('../dist/webview/', import.meta.url);
            if (!fs.existsSync(new URL('codicon.css', from))) return;
            fs.mkdirSync(to, { recursive: true });
            for (const f of ['codicon.css', 'codicon.ttf']) fs.copyFileSync(new URL(f, from), new URL(f, to));
          }),
      },
    ],
  },
];

// node reads the package.json nearest to dist/cli.js at every start, to learn whether it is CommonJS: without
// this one it parses the whole extension manifest (tens of KB, ~10 ms of every hook on a busy machine).
mkdirSync(new URL('../dist/', import.meta.url), { recursive: true });
writeFileSync(new URL('../dist/package.json', import.meta.url), '{ "type": "commonjs" }\n');

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
