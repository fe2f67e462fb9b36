// The CLI's row-at-a-time JSON (output.ts outJsonRows): the bytes outJson prints for the whole array, whatever the
// number of rows (none, one, a chunk's worth and one either side, several chunks) and whatever the rows hold.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { outJson, outJsonRows } from '../../src/cli/output';

/** What `print` writes to stdout. */
function printed(print: () => void): string {
  const chunks: string[] = [];
  const write = process.stdout.write;
  process.stdout.write = ((s: string) => (chunks.push(s), true)) as typeof process.stdout.write;
  try {
    print();
  } finally {
    process.stdout.write = write;
  }
  return chunks.join('');
}

describe('outJsonRows', () => {
  it('prints what outJson prints for the array of the same rows', () => {
    const row = (i: number) => ({
      id: `cp${i}`,
      label: ['plain', 'two\nlines', 'quote " and \\ slash', 'ünïcödé ✓', '\u001b[31mred\u001b[0m', ''][i % 6],
      session: i % 3 ? `s${i % 7}` : null,
      nested: { list: [i, i + 1], empty: [], none: {} },
      count: i,
    });
    for (const n of [0, 1, 2, 499, 500, 501, 1000, 1234]) {
      const rows = Array.from({ length: n }, (_, i) => row(i));
      assert.equal(
        printed(() => outJsonRows(n, row)),
        printed(() => outJson(rows)),
        `${n} rows`,
      );
    }
  });
});
