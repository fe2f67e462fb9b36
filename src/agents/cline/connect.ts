// Connect for Cline: one executable per event, `.clinerules/hooks/<Event>` (no extension, exec bit;
// the VS Code extension and the Cline CLI both look there). Each is a two-line sh script that hands
// stdin to our hook with the event name (Cline's extension payload names it too, its CLI's does not
// in the same words). A script of that name that is not ours is the user's: left alone, and said so.
// Cline runs hooks only with "Enable Hooks" on in its settings: the result says so.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hasMarker, hookCommand } from '../claude/settings';
import { detectEvidence } from '../common/detect';
import { editFile, readTextFile, removeEmptyDirs } from '../common/jsonEdit';
import type { AgentConnectionState, AgentConnector, HookTarget } from '../connector';

export const CLINE_HOOKS_REL = '.clinerules/hooks';
/** The hook files the cline adapter records (FINDINGS §4; PreCompact and Notification carry nothing we record). */
export const CLINE_HOOK_EVENTS = ['TaskStart', 'TaskResume', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'TaskComplete', 'TaskCancel'];

const dirOf = (workspace: string) => path.join(workspace, ...CLINE_HOOKS_REL.split('/'));

/** The script for one event; the marker on the `exec` line (the command) identifies it as ours. */
export function clineScript(event: string, target: HookTarget): string {
  return [
    '#!/bin/sh',
    `# Agent Rewind recorder for Cline's ${event} hook: stdin is the payload; it prints nothing and exits 0, so it never blocks Cline.`,
    `exec ${hookCommand({ ...target, agent: 'cline', event })}`,
    '',
  ].join('\n');
}

const isOurs = (text: string | undefined) => text !== undefined && text.split('\n').some((l) => l.startsWith('exec ') && hasMarker(l));

export const clineConnector: AgentConnector = {
  agent: 'cline',
  displayName: 'Cline',
  files: (workspace) => CLINE_HOOK_EVENTS.map((e) => path.join(dirOf(workspace), e)),
  connect(workspace, target) {
    const files: string[] = [];
    const notes: string[] = [];
    let changed = false;
    for (const event of CLINE_HOOK_EVENTS) {
      const file = path.join(dirOf(workspace), event);
      const text = clineScript(event, target);
      const before = readTextFile(file);
      if (before !== undefined && !isOurs(before)) {
        notes.push(`${CLINE_HOOKS_REL}/${event} is your own hook: it was left as it is, so Cline's ${event} events are not recorded.`);
        continue;
      }
      files.push(file);
      if (editFile(file, (t) => (t === undefined || isOurs(t) ? { text } : null), { mode: 0o755 })) changed = true;
      // An older copy may have lost its exec bit (a checkout, a copy): Cline skips a script it cannot execute.
      if ((fs.statSync(file).mode & 0o111) === 0) {
        fs.chmodSync(file, 0o755);
        changed = true;
      }
    }
    notes.push('Cline runs hooks only when "Enable Hooks" is on in its settings (Cline CLI: cline config set hooks-enabled=true).');
    if (process.platform === 'win32')
      notes.push('On Windows Cline runs <Hook>.ps1 files, which Agent Rewind does not write yet: Cline is not recorded there.');
    return { files, changed, notes };
  },
  disconnect(workspace) {
    const files: string[] = [];
    let changed = false;
    for (const event of CLINE_HOOK_EVENTS) {
      const file = path.join(dirOf(workspace), event);
      files.push(file);
      if (editFile(file, (t) => (isOurs(t) ? { remove: true } : null))) changed = true;
    }
    if (changed) removeEmptyDirs(dirOf(workspace), workspace);
    return { files, changed };
  },
  state(workspace, target): AgentConnectionState {
    let mine = 0;
    let settled = 0; // ours and current, or the user's own script (which Connect leaves alone)
    for (const event of CLINE_HOOK_EVENTS) {
      const file = path.join(dirOf(workspace), event);
      const text = readTextFile(file);
      if (!isOurs(text)) {
        if (text !== undefined) settled++;
        continue;
      }
      mine++;
      if (text === clineScript(event, target) && (fs.statSync(file).mode & 0o111) !== 0) settled++;
    }
    return mine === 0 ? 'disconnected' : settled === CLINE_HOOK_EVENTS.length ? 'connected' : 'outdated';
  },
  detect: (workspace, env, home) =>
    detectEvidence(workspace, env, home, {
      workspace: ['.clinerules', '.cline'],
      home: [path.join('Documents', 'Cline'), '.cline'],
      binaries: ['cline'],
    }),
};
