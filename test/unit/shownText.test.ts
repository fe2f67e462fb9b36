// `shown`: a value as the CLI's text output shows it — unchanged when it is plain, quoted with its
// control characters escaped (as git's core.quotePath does) when it is not.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { shown, shownLines } from '../../src/shared/text';

test('plain text is shown as it is, even with quotes, backslashes and non-ASCII letters', () => {
  for (const s of ['src/app.ts', 'a "b" \\c', 'café/naïve.txt', '日本語', '']) assert.equal(shown(s), s);
});

test('C0, DEL, C1 and bidi controls are escaped and the whole value quoted', () => {
  assert.equal(shown('a\tb'), '"a\\tb"');
  assert.equal(shown('x\ny'), '"x\\ny"');
  assert.equal(shown('\x1b]0;pwned\x07\x1b[2J'), '"\\033]0;pwned\\a\\033[2J"');
  assert.equal(shown('del\x7f'), '"del\\177"');
  assert.equal(shown('csi\u009b31m'), '"csi\\x9b31m"');
  assert.equal(shown('abc\u202etxt.exe'), '"abc\\u202etxt.exe"');
  assert.equal(shown('q"\\\x00'), '"q\\"\\\\\\000"');
});

test('shownLines keeps the line ends and escapes every other control', () => {
  assert.equal(shownLines('one\ntwo\x1b[2J\r\n'), 'one\ntwo\\033[2J\\r\n');
  assert.equal(shownLines('plain\n'), 'plain\n');
});
