// Not code: every project but src/extension maps the module name `vscode` to this file, which no
// project lists, so `import … from 'vscode'` anywhere else fails the build with this file's name
// (TS6307: "not listed within the file list of project"). See tsconfig.base.json.
export {};
