// Lint rules, chiefly the layering of src/ (README, Layout; the compiler checks it too, through the project
// references of tsconfig.json): which folder may import which, and `vscode` only in src/extension.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Imports a layer must not make: other layers of src/ matched by folder name. */
const layer = (forbidden, extra = []) => ({
  'no-restricted-imports': [
    'error',
    {
      paths: [{ name: 'vscode', message: 'Only src/extension/ may import vscode.' }],
      patterns: [
        ...(forbidden.length
          ? [
              {
                regex: `(^|/)(${forbidden.join('|')})(/|$)`,
                message: `This layer must not import ${forbidden.join(', ')} (dependencies point inward).`,
              },
            ]
          : []),
        ...extra,
      ],
    },
  ],
});
const SYNC_CHILD = ['execSync', 'execFileSync', 'spawnSync'];
const NOT_ON_HOST = 'The extension host must not wait on a child process (git): use gitAsync, or the plan worker.';
const IN_VIEW_WORKER =
  "The views' line counts and transcripts are made in the view worker: use LineStatsSource and TranscriptReader (src/extension/offHost/).";
/**
 * The extension's feature folders, lowest first: each may import the ones before it and none after it (README,
 * Layout). settings.ts, commandIds.ts and pickFolders.ts stand below them all; extension.ts (the composition
 * root) above them all.
 */
const EXT_STACK = ['offHost', 'model', 'views', 'connect', 'rewind', 'preview', 'commands'];
/**
 * The extension's imports: no webview or CLI code, nothing that waits on a child process (git) on the host,
 * (outside offHost/) no line counting or transcript parsing: the view worker does that; and no feature folder
 * above `level` of EXT_STACK (-1: below them all).
 */
const extensionImports = (planner, offHost = false, level = EXT_STACK.length) => [
  'error',
  {
    paths: [
      { name: 'node:child_process', importNames: SYNC_CHILD, message: NOT_ON_HOST },
      { name: 'child_process', importNames: SYNC_CHILD, message: NOT_ON_HOST },
      // From src/extension/ and from its subfolders.
      ...['../', '../../'].flatMap((up) => [
        { name: `${up}core/git/run`, importNames: ['git', 'startGit'], message: NOT_ON_HOST },
        { name: `${up}core/git/status`, importNames: ['uncommittedPaths', 'indexEntries'], message: NOT_ON_HOST },
        { name: `${up}core/git/repo`, importNames: ['gitHead', 'repoInfo'], message: NOT_ON_HOST },
        ...(offHost
          ? []
          : [
              { name: `${up}core/timeline/lineStats`, importNames: ['lineStats', 'storedLineStats'], message: IN_VIEW_WORKER },
              { name: `${up}agents/capabilities`, importNames: ['readAnyTimeline', 'followAnyTimeline'], message: IN_VIEW_WORKER },
            ]),
        ...(planner.length
          ? [
              {
                name: `${up}core/rewind/plan`,
                importNames: planner,
                message: 'makePlan asks git synchronously: plan through RewindService.plan.',
              },
            ]
          : []),
      ]),
    ],
    patterns: [
      {
        regex: '(^|/)(webview|cli|resident)(/|$)',
        message:
          'The extension talks to the webview through src/shared/messages.ts only, and uses the core, not the CLI nor the resident recorder.',
      },
      ...(level + 1 < EXT_STACK.length
        ? [
            {
              regex: `^\\.\\.?/(${EXT_STACK.slice(level + 1).join('|')})(/|$)`,
              message: `Inside src/extension this sits below ${EXT_STACK.slice(level + 1).join(', ')} and must not import them (README, Layout).`,
            },
          ]
        : []),
    ],
  },
];
/**
 * The core's subsystems, lowest first: each may import the ones before it and none after it (README, Layout),
 * so a reader walks the core from the ground up. paths.ts, faults.ts, errors.ts and shell/ stand below them all.
 */
const CORE_STACK = [
  'storeFiles',
  'git',
  'workspace',
  'timeline',
  'store',
  'effects',
  'scan',
  'capture',
  'rewind',
  'conversation',
  'upkeep',
];
const CORE_OUTER = ['recording', 'agents', 'resident', 'cli', 'extension', 'webview'];
/** The core rules for a subsystem at `level` of CORE_STACK (-1: below them all). */
const coreLayer = (level) => {
  const above = CORE_STACK.slice(level + 1);
  if (!above.length) return layer(CORE_OUTER);
  return layer(CORE_OUTER, [
    {
      regex: `(^|/)(${above.join('|')})(/|$)`,
      message: `Inside src/core this sits below ${above.join(', ')} and must not import them (README, Layout).`,
    },
  ]);
};
const UNLOCALIZED = 'A user-facing string goes through vscode.l10n.t(...) so it can be translated.';
/**
 * Text with a word in it: two letters running that are not a codicon's name (`$(sync~spin)`, `$(git-branch)`).
 * Punctuation, separators (` · `) and codicons alone are not words.
 */
const WORDS = '/(?<![(~\\w-])[A-Za-z]{2,}/';
/** A literal, or a template literal, whose own text (not what is put into it) has words. */
const WORDY = [`Literal[value=${WORDS}]`, `TemplateLiteral:has(> TemplateElement[value.raw=${WORDS}])`];
/** Every `parent > child` pair for each wordy literal as the child. */
const wordyUnder = (parent, child = '') => WORDY.map((w) => `${parent} > ${w}${child}`).join(', ');
/**
 * What the extension shows besides notifications (README, Localization): a tree item's or status bar item's
 * label / description / tooltip / text / name, the message above a tree, a webview panel's title, markdown
 * appended to a tooltip or hover, a command's title on a row, a quick pick item's words, a modal's detail, a
 * button of a notification, and what is posted to the preview to show.
 */
const EXTENSION_VISIBLE = [
  wordyUnder('AssignmentExpression[left.property.name=/^(label|description|tooltip|text|name|message|title)$/]', '.right'),
  wordyUnder('NewExpression[callee.property.name=/^(TreeItem|MarkdownString)$/]', ':first-child'),
  wordyUnder('CallExpression[callee.property.name=/^(appendMarkdown|appendText)$/]'),
  wordyUnder("CallExpression[callee.property.name='createWebviewPanel']", ':nth-child(2)'),
  wordyUnder('Property[key.name=/^(label|description|detail|tooltip|title|placeHolder|prompt|message)$/]', '.value'),
  wordyUnder('CallExpression[callee.property.name=/^show(Information|Warning|Error)Message$/]'),
].join(', ');
/**
 * What the preview page shows: text children of h(…), the words of its widgets (button labels, icon buttons'
 * labels, headings, badges, notes), title / aria-label attributes, text set on an element, and any literal
 * that starts like a sentence or a label ("Rewind", "Nothing to rewind") — class names, ids, icon names and
 * message types are lowercase.
 */
const WEBVIEW_VISIBLE = [
  wordyUnder("CallExpression[callee.name='h']", ':not(:first-child)'),
  wordyUnder("CallExpression[callee.name='button']", ':first-child'),
  wordyUnder("CallExpression[callee.name='note']", ':not(:first-child):not(:nth-child(2))'),
  wordyUnder('CallExpression[callee.name=/^(iconButton|truncated|badge)$/]', ':nth-child(2)'),
  wordyUnder("CallExpression[callee.name='heading']", ':not(:first-child)'),
  wordyUnder("Property:matches([key.name='title'], [key.value=/^(aria-label|title)$/])", '.value'),
  wordyUnder('AssignmentExpression[left.property.name=/^(textContent|innerText|title|error|busyMessage)$/]', '.right'),
  "Literal[value=/^[A-Z][a-z]+/]:not(CallExpression[callee.property.name='t'] > Literal):not(BinaryExpression > Literal):not(SwitchCase > Literal)",
].join(', ');
/** An l10n.t(…) message is a plain string literal: the exporter (npm run l10n) reads it from the source. */
const L10N_LITERAL = {
  selector: ["[callee.object.name='l10n']", "[callee.object.property.name='l10n']"]
    .map((o) => `CallExpression[callee.property.name='t']${o}:not([arguments.0.type='Literal'])`)
    .join(', '),
  message: 'l10n.t takes its message as a string literal, with {0}, {1}… for what goes in (npm run l10n exports it).',
};
const NODE_BUILTINS = { regex: '^node:', message: 'The webview and the shared protocol run in a browser: no node modules.' };

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'test-output/**', '.demo/**', 'test/fixtures/**/*.jsonl'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // Lazy `require()` keeps modules off the hook's start-up path: deliberate.
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-empty': ['error', { allowEmptyCatch: true }],
      // `let x = fallback; try { x = … } catch { … }` reads plainly; this rule flags it.
      'no-useless-assignment': 'off',
    },
  },
  // Files readable in one sitting: a subsystem that outgrows this becomes a folder. Functions too: a longer one
  // is split into named steps or a table (CONTRIBUTING.md). 130 is the ceiling every function meets today,
  // with no exemption; lower it as the longest ones are split.
  {
    files: ['src/**'],
    rules: {
      'max-lines': ['error', { max: 600 }],
      'max-lines-per-function': ['error', { max: 130, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  // Tests poke at JSON output and hostile input: `any` is allowed there, nowhere else.
  { files: ['test/**', 'bench/**', 'scripts/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  { files: ['src/core/**'], rules: layer(CORE_OUTER) },
  { files: ['src/core/paths.ts', 'src/core/faults.ts', 'src/core/errors.ts', 'src/core/shell/**'], rules: coreLayer(-1) },
  ...CORE_STACK.map((name, level) => ({
    files: [name === 'store' ? 'src/core/store.ts' : `src/core/${name}/**`],
    rules: coreLayer(level),
  })),
  { files: ['src/recording/**'], rules: layer(['agents', 'resident', 'cli', 'extension', 'webview']) },
  { files: ['src/agents/**'], rules: layer(['resident', 'cli', 'extension', 'webview']) },
  // The resident recorder records with the hook's own parser, handed down (recording/payload.ts): it names no agent.
  { files: ['src/resident/**'], rules: layer(['agents', 'cli', 'extension', 'webview']) },
  { files: ['src/cli/**'], rules: layer(['extension', 'webview']) },
  { files: ['src/shared/**'], rules: layer(['core', 'recording', 'agents', 'resident', 'cli', 'extension', 'webview'], [NODE_BUILTINS]) },
  { files: ['src/webview/**'], rules: layer(['core', 'recording', 'agents', 'resident', 'cli', 'extension'], [NODE_BUILTINS]) },
  // Localization (README, Localization): l10n.t messages are literals everywhere; the extension's and the
  // preview page's visible words go through l10n.t. The CLI speaks English and is not localized.
  { files: ['src/**'], rules: { 'no-restricted-syntax': ['error', L10N_LITERAL] } },
  {
    files: ['src/webview/**'],
    rules: { 'no-restricted-syntax': ['error', L10N_LITERAL, { selector: WEBVIEW_VISIBLE, message: UNLOCALIZED }] },
  },
  {
    files: ['src/extension/**'],
    rules: {
      'no-restricted-imports': extensionImports(['makePlan']),
      'no-restricted-syntax': [
        'error',
        {
          selector: `CallExpression[callee.property.name=/^(${SYNC_CHILD.join('|')})$/], CallExpression[callee.name=/^(${SYNC_CHILD.join('|')})$/]`,
          message: NOT_ON_HOST,
        },
        // What a notification, a quick pick, an input box or a progress says is localizable (package.nls.json
        // holds package.json's words; English only so far, but every string goes through the machinery).
        {
          selector: `CallExpression[callee.property.name=/^show(Information|Warning|Error)Message$/][arguments.0.type=/^(Literal|TemplateLiteral)$/]`,
          message: UNLOCALIZED,
        },
        {
          selector: `CallExpression[callee.property.name=/^(showQuickPick|showInputBox|withProgress)$/] Property[key.name=/^(title|placeHolder|prompt)$/][value.type=/^(Literal|TemplateLiteral)$/]`,
          message: UNLOCALIZED,
        },
        // Tree items, the status bar item, tooltips and hovers, buttons and modals, what the preview is sent.
        { selector: EXTENSION_VISIBLE, message: UNLOCALIZED },
        L10N_LITERAL,
      ],
    },
  },
  {
    files: ['src/extension/settings.ts', 'src/extension/commandIds.ts', 'src/extension/pickFolders.ts', 'src/extension/timers.ts'],
    rules: { 'no-restricted-imports': extensionImports(['makePlan'], false, -1) },
  },
  ...EXT_STACK.map((name, level) => ({
    files: [`src/extension/${name}/**`],
    rules: { 'no-restricted-imports': extensionImports(['makePlan'], name === 'offHost', level) },
  })),
  // The one place the extension plans (with the core's makePlan, git left out and asked without blocking).
  {
    files: ['src/extension/rewind/rewindService.ts'],
    rules: { 'no-restricted-imports': extensionImports([], false, EXT_STACK.indexOf('rewind')) },
  },
  // The off-host worker (a worker thread: blocking there stalls nobody) and the host sides of its work,
  // whose fallbacks run the same code on the host when the worker cannot.
  { files: ['src/extension/offHost/worker.ts'], rules: { 'no-restricted-imports': extensionImports([], true, 0) } },
  // Browser code: the webview, and the functions end-to-end tests run inside the page.
  { files: ['src/webview/**', 'test/e2e/**', 'test/harness/**'], languageOptions: { globals: { ...globals.browser } } },
  { files: ['src/webview/**'], languageOptions: { globals: { acquireVsCodeApi: 'readonly' } } },
  { files: ['test/integration/**'], languageOptions: { globals: { ...globals.mocha } } },
);
