'use strict';
// Probe extension for the e2e helper self-test (see package.json). Plain JS, no build step.
const vscode = require('vscode');

function nonce() {
  let s = '';
  for (let i = 0; i < 32; i++) s += 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(Math.random() * 36)];
  return s;
}

function html(webview, title) {
  const n = nonce();
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${webview.cspSource} 'nonce-${n}'; script-src 'nonce-${n}';">
<style nonce="${n}">body{font-family:var(--vscode-font-family);color:var(--vscode-foreground)}</style>
<title>${title}</title></head><body>
<h2 id="title">${title}</h2><button id="ping">Ping</button><p id="status">ready</p>
<script nonce="${n}">
  const vscode = acquireVsCodeApi();
  document.getElementById('ping').addEventListener('click', () => vscode.postMessage({ type: 'ping' }));
  window.addEventListener('message', (e) => { if (e.data.type === 'pong') document.getElementById('status').textContent = 'pong ' + e.data.count; });
</script></body></html>`;
}

function wire(webview, title) {
  let count = 0;
  webview.options = { enableScripts: true };
  webview.html = html(webview, title);
  webview.onDidReceiveMessage((m) => {
    if (m.type === 'ping') webview.postMessage({ type: 'pong', count: ++count });
  });
}

function activate(context) {
  const counts = { Alpha: 0, Beta: 0 };
  const changed = new vscode.EventEmitter();
  const tree = {
    onDidChangeTreeData: changed.event,
    // Beta holds a row once bumped: a row drawn before it holds anything, as a prompt's before its first edit.
    getChildren: (el) => (!el ? Object.keys(counts) : el === 'Beta' && counts.Beta > 0 ? ['Beta child'] : []),
    getTreeItem: (name) => {
      if (name === 'Beta child') return new vscode.TreeItem('Beta child');
      const holds = name === 'Beta' && counts.Beta > 0;
      const item = new vscode.TreeItem(
        `${name} ${counts[name]}`,
        holds ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
      );
      item.id = name;
      item.contextValue = 'probeItem';
      item.description = 'probe';
      // Markdown, as Agent Rewind's tooltips are (a plain-string tooltip would become the row's accessible name).
      item.tooltip = new vscode.MarkdownString().appendText(`${name} was bumped ${counts[name]} time(s)`);
      return item;
    },
  };
  context.subscriptions.push(
    vscode.window.registerTreeDataProvider('rewindProbe.tree', tree),
    vscode.commands.registerCommand('rewindProbe.bump', (name) => {
      counts[name]++;
      changed.fire();
    }),
    vscode.commands.registerCommand('rewindProbe.openPanel', () => {
      const panel = vscode.window.createWebviewPanel('rewindProbe.panel', 'Probe Panel', vscode.ViewColumn.One, { enableScripts: true });
      wire(panel.webview, 'Probe Panel');
    }),
    vscode.commands.registerCommand('rewindProbe.sayHi', async () => {
      const again = await vscode.window.showInformationMessage('Probe says hi', 'Again');
      if (again === 'Again') vscode.window.showInformationMessage('Probe says hi again');
    }),
    vscode.window.registerWebviewViewProvider('rewindProbe.view', { resolveWebviewView: (view) => wire(view.webview, 'Probe View') }),
    ...customEditor(),
  );
}

/** An editable custom editor for *.probe files: `rewindProbe.editCustom` records an edit, so its tab is dirty
 *  the way a real custom editor's is (no text document behind it): what the unsaved-work guard must see. */
function customEditor() {
  const changed = new vscode.EventEmitter();
  let last;
  const provider = {
    onDidChangeCustomDocument: changed.event,
    openCustomDocument: (uri) => ({ uri, dispose() {} }),
    resolveCustomEditor: (document, panel) => {
      last = document;
      panel.webview.html = `<!DOCTYPE html><html lang="en"><body><h2>Probe Editor</h2><p>${document.uri.path.split('/').pop()}</p></body></html>`;
    },
    saveCustomDocument: async () => {},
    saveCustomDocumentAs: async () => {},
    revertCustomDocument: async () => {},
    backupCustomDocument: async (_document, context) => ({ id: context.destination.toString(), delete() {} }),
  };
  return [
    vscode.window.registerCustomEditorProvider('rewindProbe.editor', provider, { supportsMultipleEditorsPerDocument: false }),
    vscode.commands.registerCommand('rewindProbe.editCustom', () => {
      if (!last) throw new Error('no probe editor is open');
      changed.fire({ document: last, label: 'probe edit', undo() {}, redo() {} });
    }),
  ];
}

module.exports = { activate, deactivate() {} };
