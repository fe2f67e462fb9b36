// The composition root of the VS Code layer (views and commands come with the extension work).
import type * as vscode from 'vscode';

export function activate(_context: vscode.ExtensionContext): void {}

export function deactivate(): void {}
