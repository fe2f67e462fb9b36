// The chunked line reader and the line projection: lines across chunk boundaries, multi-byte
// characters, a last line without newline, CRLF, garbage — and a tens-of-MB transcript.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { classifyUserText } from '../../src/agents/claude/transcriptLine';
import { readTranscript } from '../../src/agents/claude/transcriptRead';
import { isError } from '../../src/core/errors';
import { forEachLine } from '../../src/agents/common/lines';
import { readTimeline } from '../../src/agents/claude/transcriptTimeline';
import { tempDir } from '../helpers/tmp';

test('forEachLine returns every line with its byte offset, across 1 MiB chunk boundaries and multi-byte characters', () => {
  const dir = tempDir();
  const file = path.join(dir, 't.jsonl');
  // Lines sized so newlines and 3-byte characters straddle the chunk edges.
  const lines = ['a'.repeat((1 << 20) - 3) + '€', '€'.repeat(500000), 'short', 'x'.repeat(3 * (1 << 20)), 'last line without newline ✓'];
  fs.writeFileSync(file, lines.join('\n'));
  const data = fs.readFileSync(file);
  const got: string[] = [];
  forEachLine(file, (buf, offset) => {
    assert.equal(Buffer.compare(buf, data.subarray(offset, offset + buf.length)), 0, 'the offset points at the line');
    got.push(buf.toString('utf8'));
  });
  assert.deepEqual(got, lines);
});

test('readTranscript skips blank and torn lines, tolerates CRLF, and reports what it skipped', () => {
  const dir = tempDir();
  const file = path.join(dir, 't.jsonl');
  fs.writeFileSync(
    file,
    '{"type":"user","uuid":"u1","parentUuid":null,"message":{"role":"user","content":"hi"}}\r\n' +
      '\n' +
      'not json\n' +
      '[1,2]\n' +
      '{"type":"brand-new-type","whatever":true}\n' +
      '{"type":"assistant","uuid":"a1","parentUuid":"u1","message":{"id":"m","content":[{"type":"text","text":"yo"}]}}',
  );
  const r = readTranscript(file);
  assert.deepEqual(
    r.entries.map((e) => e.type),
    ['user', 'brand-new-type', 'assistant'],
  );
  assert.deepEqual(r.badLines, [1, 2]);
  assert.equal(r.entries[0]!.user!.text, 'hi');
  assert.equal(r.entries[2]!.assistant!.texts[0], 'yo');
});

test('a missing transcript is a clear error', () => {
  assert.throws(
    () => readTranscript('/nonexistent/x.jsonl'),
    (e: unknown) =>
      isError(e, 'transcript-missing') &&
      e.details.file === '/nonexistent/x.jsonl' &&
      e.message ===
        'No transcript at /nonexistent/x.jsonl; check the path (Claude Code keeps them in ~/.claude/projects/<project>/<session id>.jsonl).',
  );
});

test('user text classification: command and shell wrappers are prompts, caveats and outputs are not', () => {
  assert.deepEqual(
    classifyUserText('<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args>opus</command-args>'),
    { kind: 'prompt', text: '/model opus' },
  );
  assert.deepEqual(classifyUserText('<command-message>init is running…</command-message>\n<command-name>/init</command-name>'), {
    kind: 'prompt',
    text: '/init',
  });
  assert.deepEqual(classifyUserText('<bash-input>ls -la</bash-input>'), { kind: 'prompt', text: '! ls -la' });
  assert.equal(classifyUserText('<local-command-caveat>Caveat: …</local-command-caveat>').kind, 'meta');
  assert.equal(classifyUserText('<local-command-stdout>Set model</local-command-stdout>').kind, 'command-output');
  assert.equal(classifyUserText('<bash-stdout>x</bash-stdout><bash-stderr></bash-stderr>').kind, 'command-output');
  assert.equal(classifyUserText('[Request interrupted by user for tool use]').kind, 'interrupt');
  assert.equal(classifyUserText('   ').kind, 'empty');
  // Only a message that starts with the wrapper is one: a prompt may talk about the tags.
  const talk = 'Why does <command-name>/x</command-name> appear in my transcript?';
  assert.deepEqual(classifyUserText(talk), { kind: 'prompt', text: talk });
});

// Its speed is measured by the benchmark (bench/timelineScale.mjs, a 20 MB transcript), not here.
test('a 40 MB transcript of 200,000-character results is read whole: every prompt and tool, results kept as previews', () => {
  const dir = tempDir();
  const file = path.join(dir, 'big.jsonl');
  const fd = fs.openSync(file, 'w');
  const big = 'x'.repeat(200000);
  let parent: string | null = null;
  let n = 0;
  const put = (o: Record<string, unknown>) => fs.writeSync(fd, JSON.stringify(o) + '\n');
  for (let turn = 0; turn < 100; turn++) {
    const p = `p${turn}`;
    put({
      type: 'user',
      uuid: p,
      parentUuid: parent,
      sessionId: 's',
      timestamp: '2026-12-01T00:00:00.000Z',
      message: { role: 'user', content: `prompt ${turn}` },
    });
    parent = p;
    for (let k = 0; k < 2; k++) {
      const a = `a${n}`;
      const r = `r${n++}`;
      put({
        type: 'assistant',
        uuid: a,
        parentUuid: parent,
        sessionId: 's',
        message: { id: a, content: [{ type: 'tool_use', id: `t${a}`, name: 'Read', input: { file_path: '/w/f' } }] },
      });
      put({
        type: 'user',
        uuid: r,
        parentUuid: a,
        sessionId: 's',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${a}`, content: big }] },
      });
      put({ type: 'api-request-blob', sessionId: 's', message: { content: [{ type: 'text', text: big }] } });
      parent = r;
    }
  }
  fs.closeSync(fd);
  assert.ok(fs.statSync(file).size > 40e6);
  const t = readTimeline(file);
  assert.equal(t.prompts.length, 100);
  assert.equal(t.prompts[99]!.tools.length, 2);
  assert.equal(t.prompts[99]!.tools[0]!.result!.preview.length, 500, 'results are kept as a preview, not whole');
  for (const p of t.prompts) assert.equal(p.tools.length, 2, `prompt ${p.text}: both tools`);
  assert.equal(t.prompts[0]!.text, 'prompt 0');
});
