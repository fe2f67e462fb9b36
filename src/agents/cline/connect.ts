// Connect for Cline: one executable per event, `.clinerules/hooks/<Event>` (no extension, exec bit;
// the VS Code extension and the Cline CLI both look there), `<Event>.ps1` on Windows (FINDINGS §4).
// Each is a short script that hands stdin to our hook with the event name (Cline's extension payload
// names it too, its CLI's does not in the same words). A script of that name that is not ours is the
// user's: left alone, and said so. Cline runs hooks only with "Enable Hooks" on in its settings: the
// result says so.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CONNECT_MARKER, hasMarker, hookCommand } from '../common/hookCommand';
import { detectEvidence } from '../common/evidence';
import { editFile, readTextFile, removeEmptyDirs } from '../common/jsonEdit';
import type { AgentConnectionState, ConnectorParts, HookTarget } from '../common/connector';
import { ENGLISH } from '../../shared/l10n';

export const CLINE_HOOKS_REL = '.clinerules/hooks';
/** The hook files the cline adapter records (FINDINGS §4; PreCompact and Notification carry nothing we record). */
export const CLINE_HOOK_EVENTS = ['TaskStart', 'TaskResume', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'TaskComplete', 'TaskCancel'];

const dirOf = (workspace: string) => path.join(workspace, ...CLINE_HOOKS_REL.split('/'));

const comment = (event: string) =>
  `# Agent Rewind recorder for Cline's ${event} hook: stdin is the payload; it prints nothing and exits 0, so it never blocks Cline.`;

/** The sh script for one event; the marker on the `exec` line (the command) identifies it as ours. */
export function clineScript(event: string, target: HookTarget): string {
  // Environment assignments go before `exec` (`VAR=x exec cmd`): after it, sh would run `VAR=x` as the command.
  const { env: _env, ...bare } = target;
  const command = hookCommand({ ...bare, agent: 'cline', event });
  const assigns = hookCommand({ ...target, agent: 'cline', event }).slice(0, -command.length);
  return ['#!/bin/sh', comment(event), `${assigns}exec ${command}`, ''].join('\n');
}

/** One argument for PowerShell: single quotes, a quote inside doubled (nothing else expands there). */
export function psQuote(arg: string): string {
  if (/[\0\r\n]/.test(arg)) throw new Error(`The path ${JSON.stringify(arg)} contains a line break or NUL; choose another folder.`);
  return `'${arg.replace(/['\u2018\u2019\u201a\u201b]/g, '$&$&')}'`;
}

/** The line of a PowerShell script that runs our hook (its marker identifies the script as ours). */
const PS_RUN = '[Console]::In.ReadToEnd() | & ';

/**
 * The PowerShell script for one event (Windows): stdin read whole as UTF-8 and piped to our hook as
 * UTF-8 (Windows PowerShell 5.1 would otherwise re-encode it in the console's code page), our hook's
 * output dropped, exit 0 whatever happens, so Cline is never blocked.
 */
export function clinePowerShellScript(event: string, target: HookTarget): string {
  hookCommand({ ...target, agent: 'cline', event }); // the same checks of the agent, event and variable names
  const env = Object.entries(target.env ?? {}).map(([k, v]) => `$env:${k} = ${psQuote(v)}`);
  return [
    comment(event),
    '$utf8 = New-Object System.Text.UTF8Encoding $false',
    '[Console]::InputEncoding = $utf8',
    '$OutputEncoding = $utf8',
    ...env,
    `${PS_RUN}${psQuote(target.node)} ${psQuote(target.cli)} hook cline ${event} --store ${psQuote(target.store)} ${CONNECT_MARKER} | Out-Null`,
    'exit 0',
    '',
  ].join('\r\n');
}

const isOurs = (text: string | undefined) =>
  text !== undefined && text.split(/\r?\n/).some((l) => (l.startsWith('exec ') || l.startsWith(PS_RUN)) && hasMarker(l));

/** Cline's hook files and their text on `platform`: `.ps1` PowerShell scripts on Windows, sh scripts elsewhere. */
function layout(platform: NodeJS.Platform) {
  const win = platform === 'win32';
  return {
    name: (event: string) => (win ? `${event}.ps1` : event),
    script: win ? clinePowerShellScript : clineScript,
    /** Windows has no exec bit to keep: PowerShell runs the .ps1 by name. */
    executable: !win,
  };
}

/** The Cline connector for `platform` (tests build Windows' on any machine). */
export function clineConnectorFor(platform: NodeJS.Platform): ConnectorParts {
  const l = layout(platform);
  return {
    files: (workspace) => CLINE_HOOK_EVENTS.map((e) => path.join(dirOf(workspace), l.name(e))),
    connect(workspace, target, l10n = ENGLISH) {
      const files: string[] = [];
      const notes: string[] = [];
      let changed = false;
      for (const event of CLINE_HOOK_EVENTS) {
        const file = path.join(dirOf(workspace), l.name(event));
        const text = l.script(event, target);
        const before = readTextFile(file);
        if (before !== undefined && !isOurs(before)) {
          notes.push(
            l10n.t(
              "{0} is your own hook: it was left as it is, so Cline's {1} events are not recorded.",
              `${CLINE_HOOKS_REL}/${l.name(event)}`,
              event,
            ),
          );
          continue;
        }
        files.push(file);
        if (editFile(file, (t) => (t === undefined || isOurs(t) ? { text } : null), { mode: 0o755 })) changed = true;
        // An older copy may have lost its exec bit (a checkout, a copy): Cline skips a script it cannot execute.
        if (l.executable && (fs.statSync(file).mode & 0o111) === 0) {
          fs.chmodSync(file, 0o755);
          changed = true;
        }
      }
      notes.push(
        l10n.t('Cline runs hooks only when "Enable Hooks" is on in its settings (Cline CLI: cline config set hooks-enabled=true).'),
      );
      return { files, changed, notes };
    },
    disconnect(workspace) {
      const files: string[] = [];
      let changed = false;
      // Both forms: a workspace connected on another system is disconnected here too.
      for (const event of CLINE_HOOK_EVENTS) {
        for (const name of [event, `${event}.ps1`]) {
          const file = path.join(dirOf(workspace), name);
          if (editFile(file, (t) => (isOurs(t) ? { remove: true } : null))) changed = true;
          if (name === l.name(event)) files.push(file);
        }
      }
      if (changed) removeEmptyDirs(dirOf(workspace), workspace);
      return { files, changed };
    },
    state(workspace, target): AgentConnectionState {
      let mine = 0;
      let settled = 0; // ours and current, or the user's own script (which Connect leaves alone)
      for (const event of CLINE_HOOK_EVENTS) {
        const file = path.join(dirOf(workspace), l.name(event));
        const text = readTextFile(file);
        if (!isOurs(text)) {
          if (text !== undefined) settled++;
          continue;
        }
        mine++;
        if (text === l.script(event, target) && (!l.executable || (fs.statSync(file).mode & 0o111) !== 0)) settled++;
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
}

export const clineConnector = clineConnectorFor(process.platform);
