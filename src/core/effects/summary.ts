// The one line that says what a tool call did, e.g. `git push origin main` or a file's path: shown in
// checkpoint labels (`Bash: git push origin main`), call lines and the preview. The adapter's
// `summary` hint wins; otherwise the command, the paths, or the input as JSON.
import type { ToolKind } from './toolKind';
import { oneLine } from '../../shared/text';

/** A tool's input as one line of JSON (an empty object shows as nothing). */
export function inputSummary(input: unknown): string {
  let json = '';
  try {
    json = JSON.stringify(input) ?? '';
  } catch {
    json = '';
  }
  return oneLine(json === '{}' ? '' : json, 160);
}

export function summarize(kind: ToolKind, input: unknown): string {
  if (kind.summary !== undefined) return kind.summary;
  if (kind.kind === 'shell') return oneLine(kind.command, 200);
  if (kind.kind === 'file-write') return kind.paths.join(', ');
  return inputSummary(input);
}
