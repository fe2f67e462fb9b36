// The shell command-line parser: a script (pipelines of simple commands and `( … )` groups, split at
// `&&`, `||`, `;`, `|`, `&` and newlines) from the lexer's tokens, reserved words (`if`, `do`,
// `fi`…) dropped, heredoc bodies attached to their command. Pure; knows nothing of effects.
import { type Dialect, lex, type Token } from './lex';

/** A leading `VAR=value` (or `VAR+=value`, `a[i]=value`) assignment word. */
export const ASSIGN = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

/** One simple command: its words (quotes removed), the original text, and what is nested in it. */
export interface SimpleCommand {
  words: string[];
  text: string;
  /** Output redirection targets (`> file`, `>> file`, `&> file`). */
  writes: string[];
  heredocs: string[];
  subs: string[];
}

export interface Pipeline {
  items: (SimpleCommand | { group: Script; subshell: boolean })[];
}
export type Script = Pipeline[];

const RESERVED_START = new Set(['if', 'then', 'else', 'elif', 'do', 'while', 'until', '!', '{', 'time', 'coproc']);
const RESERVED_END = new Set(['fi', 'done', 'esac', '}']);

/** Parses a command line into pipelines of simple commands and groups. */
export function parseScript(src: string, dialect: Dialect = 'sh'): Script {
  const tokens = lex(src, dialect);
  let pos = 0;
  const parseList = (stopAtParen: boolean): Script => {
    const script: Script = [];
    let pipe: Pipeline = { items: [] };
    let cur: SimpleCommand | null = null;
    let curStart = -1;
    let curEnd = -1;
    let expectTarget: string | null = null;
    let skipRest = false; // `for x in …` / `case …`: not a command
    const endCommand = () => {
      if (cur) {
        cur.text = src.slice(curStart, curEnd).trim();
        // Reserved words at the start (`if git push`, `then npm publish`, `do …`).
        while (cur.words.length && RESERVED_START.has(cur.words[0]!)) cur.words.shift();
        while (cur.words.length && RESERVED_END.has(cur.words[cur.words.length - 1]!)) cur.words.pop();
        if (cur.words.length || cur.heredocs.length || cur.subs.length || cur.writes.length) pipe.items.push(cur);
      }
      cur = null;
      expectTarget = null;
      skipRest = false;
    };
    const endPipeline = () => {
      endCommand();
      if (pipe.items.length) script.push(pipe);
      pipe = { items: [] };
    };
    while (pos < tokens.length) {
      const t = tokens[pos++]!;
      if (t.kind === 'op') {
        if (t.value === ')') {
          if (stopAtParen) break;
          endPipeline();
          continue;
        }
        if (t.value === '(') {
          endCommand();
          const group = parseList(true);
          pipe.items.push({ group, subshell: true });
          continue;
        }
        if (t.value === '|') endCommand();
        else endPipeline();
        continue;
      }
      if (!cur) {
        cur = { words: [], text: '', writes: [], heredocs: [], subs: [] };
        curStart = t.start;
      }
      curEnd = t.end;
      if (t.kind === 'redir') {
        if (t.heredoc) cur.heredocs.push(''); // placeholder; body read below
        if (t.heredoc) (cur as SimpleCommand & { _h?: Token[] })._h = [...((cur as SimpleCommand & { _h?: Token[] })._h ?? []), t];
        else expectTarget = t.value;
        continue;
      }
      if (t.subs) cur.subs.push(...t.subs);
      if (expectTarget !== null) {
        if (expectTarget.includes('>')) cur.writes.push(t.value);
        expectTarget = null;
        continue;
      }
      if (skipRest) continue;
      if (cur.words.length === 0 && (t.value === 'for' || t.value === 'case' || t.value === 'select' || t.value === 'function')) {
        skipRest = true;
        continue;
      }
      cur.words.push(t.value);
    }
    endPipeline();
    return script;
  };
  const script = parseList(false);
  // Heredoc bodies are filled in by the lexer after the command's line: copy them in now.
  const fill = (s: Script) => {
    for (const p of s)
      for (const it of p.items) {
        if ('group' in it) fill(it.group);
        else {
          const h = (it as SimpleCommand & { _h?: Token[] })._h;
          if (h) {
            it.heredocs = h.map((t) => t.heredoc?.body ?? '');
            delete (it as SimpleCommand & { _h?: Token[] })._h;
          }
        }
      }
  };
  fill(script);
  return script;
}

/** The simple commands of a chain, as text, quotes respected (kept for display and older callers). */
export function splitChain(command: string): string[] {
  const out: string[] = [];
  const walk = (s: Script) => {
    for (const p of s)
      for (const it of p.items)
        if ('group' in it) walk(it.group);
        else if (it.text) out.push(it.text);
  };
  walk(parseScript(command));
  return out;
}

/** Shell words of one simple command (quotes removed), leading `VAR=value` assignments dropped. */
export function words(simple: string): string[] {
  const out = lex(simple)
    .filter((t) => t.kind === 'word')
    .map((t) => t.value);
  while (out.length && ASSIGN.test(out[0]!)) out.shift();
  return out;
}
