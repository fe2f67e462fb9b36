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
    getChildren: () => Object.keys(counts),
    getTreeItem: (name) => {
      const item = new vscode.TreeItem(`${name} ${counts[name]}`);
      item.id = name;
      item.contextValue = 'probeItem';
      item.description = 'probe';
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
  );
}

module.exports = { activate, deactivate() {} };
