// The CLI's times (shared/time.ts isoTime, which every CLI time goes through): its day-cached formatting is Date's toISOString, character for character.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isoTime as iso } from '../../src/shared/time';

describe('iso', () => {
  it("equals Date's toISOString for every millisecond shape, day edge and year, in and out of four digits", () => {
    const times = [0, 1, 9, 10, 99, 100, 999, 1000, 59_999, 3_599_999, 86_399_999, 86_400_000, Date.UTC(2026, 0, 8, 6, 59, 13, 7)];
    times.push(
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(10000, 0, 1),
      -1,
      -86_400_001,
      1.5,
      Date.UTC(1969, 11, 31, 23, 59, 59, 999),
    );
    // A deterministic spread over the four-digit years.
    for (let i = 0, t = 12345; i < 20000; i++, t = (t * 48271) % 2147483647)
      times.push(Math.floor((t / 2147483647) * Date.UTC(9999, 0, 1)));
    assert.deepEqual(
      times.map((t) => iso(t)),
      times.map((t) => new Date(t).toISOString()),
    );
  });
});
