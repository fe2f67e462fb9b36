// What `agent-rewind rewind` prints once files were written: the counts of what succeeded (a failed
// file is counted as failed, a file left because it changed while the rewind ran as left), one line
// per file, and the `--json` result. Exit 0 only when every file is as the target has it.
import type { FileResult } from '../core/rewind/transaction';
import type { RewindOutcome } from '../core/rewind/apply';
import { leftAloneJson, planJson } from '../core/rewind/plan';
import { notRestorableJson } from '../core/rewind/gaps';
import { shown } from '../shared/text';
import { EXIT, errOut, out, outJson } from './output';

type Written = Extract<RewindOutcome, { status: 'done' | 'partial' }>;

export interface ResultCounts {
  restored: number;
  deleted: number;
  recreated: number;
  failed: number;
  /** Left as the user saved them (changed while the rewind ran): not written, not failed. */
  skipped: number;
}

export function resultCounts(files: readonly FileResult[]): ResultCounts {
  const okAs = (a: FileResult['action']) => files.filter((f) => f.ok && f.action === a).length;
  return {
    restored: okAs('restore'),
    deleted: okAs('delete'),
    recreated: okAs('recreate'),
    failed: files.filter((f) => !f.ok && !f.skipped).length,
    skipped: files.filter((f) => f.skipped).length,
  };
}

function mark(f: FileResult): string {
  return f.ok ? 'ok    ' : f.skipped ? 'left  ' : 'FAILED';
}

/** Prints the result (text or `--json`) of a rewind that wrote; returns its exit code. */
export function printWritten(r: Written, json: boolean, printRest: () => void): number {
  const undo = `agent-rewind rewind --to ${r.checkpoint.id}`;
  const counts = resultCounts(r.files);
  if (json) {
    outJson({
      status: r.status,
      target: r.plan.target.id,
      checkpoint: r.checkpoint.id,
      undo,
      files: r.files.map((f) => ({
        path: f.path,
        action: f.action,
        ok: f.ok,
        hash: f.actual,
        ...(f.error ? { error: f.error } : {}),
        ...(f.skipped ? { skipped: f.skipped } : {}),
      })),
      counts,
      skipped: r.files.filter((f) => f.skipped).map((f) => ({ path: f.path, reason: f.skipped })),
      warnings: r.plan.warnings,
      notUndone: planJson(r.plan).notUndone,
      notRestorable: notRestorableJson(r.plan.notRestorable),
      leftAlone: leftAloneJson(r.plan),
    });
  } else {
    const failed = counts.failed ? `; ${counts.failed} failed` : '';
    const left = counts.skipped
      ? `; ${counts.skipped === 1 ? '1 file' : `${counts.skipped} files`} left as you saved ${counts.skipped === 1 ? 'it' : 'them'}`
      : '';
    out(
      `Rewound to ${r.plan.target.id}: restored ${counts.restored}, deleted ${counts.deleted}, recreated ${counts.recreated} file(s)${failed}${left}.`,
    );
    for (const f of r.files) out(`  ${mark(f)} ${f.action.padEnd(8)} ${shown(f.path)}${f.error ? ` — ${f.error}` : ''}`);
    printRest();
    out(`Undo this rewind: ${undo}`);
  }
  if (r.status === 'done') return EXIT.ok;
  const again = `agent-rewind rewind ${r.plan.target.call ? `--before-call ${r.plan.target.id}` : `--to ${r.plan.target.id}`}`;
  if (counts.failed)
    errOut(
      `Some files could not be rewound (listed above); everything else was${counts.skipped ? ', but for those left as you saved them' : ''}. Undo with \`${undo}\`.\n`,
    );
  else
    errOut(
      `${counts.skipped === 1 ? '1 file was' : `${counts.skipped} files were`} saved while the rewind ran and left as you saved ${counts.skipped === 1 ? 'it' : 'them'} (a copy is in the store); everything else was rewound. To rewind ${counts.skipped === 1 ? 'it' : 'them'} too, run \`${again}\` again.\n`,
    );
  return EXIT.error;
}
