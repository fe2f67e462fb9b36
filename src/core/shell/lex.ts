// The shell command-line lexer: words (quotes, escapes and `$'…'` resolved), operators, redirections
// and heredoc bodies, in sh or PowerShell quoting. Command sources nested in a word (`$(…)`,
// backticks, `<(…)`) are kept as text for the caller to parse on their own. Pure; knows nothing of
// what commands do (effects/ classifies them).

export type Dialect = 'sh' | 'powershell';

export interface Token {
  kind: 'word' | 'op' | 'redir';
  value: string;
  start: number;
  end: number;
  /** Command sources nested in a word (`$(…)`, backticks, `<(…)`), parsed on their own. */
  subs?: string[];
  /** For `<<`: the heredoc body (filled when its lines are read). */
  heredoc?: { body: string };
}

function isSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\r';
}

/** Reads a balanced `(…)` starting after the opening paren; returns the inner text and the index after `)`. */
function readBalanced(src: string, i: number, open = '(', close = ')'): { inner: string; end: number } {
  let depth = 1;
  const start = i;
  while (i < src.length) {
    const c = src[i]!;
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === "'") {
      const j = src.indexOf("'", i + 1);
      i = j < 0 ? src.length : j + 1;
      continue;
    }
    if (c === '"') {
      i++;
      while (i < src.length && src[i] !== '"') i += src[i] === '\\' ? 2 : 1;
      i++;
      continue;
    }
    if (c === open) depth++;
    else if (c === close && --depth === 0) return { inner: src.slice(start, i), end: i + 1 };
    i++;
  }
  return { inner: src.slice(start), end: src.length };
}

export function lex(src: string, dialect: Dialect = 'sh'): Token[] {
  const tokens: Token[] = [];
  const esc = dialect === 'powershell' ? '`' : '\\';
  let word = '';
  let has = false;
  let wordStart = 0;
  let subs: string[] = [];
  const pendingHeredocs: { delim: string; strip: boolean; token: Token }[] = [];
  const flush = (end: number) => {
    if (has || word) tokens.push({ kind: 'word', value: word, start: wordStart, end, ...(subs.length ? { subs } : {}) });
    word = '';
    has = false;
    subs = [];
  };
  const begin = (i: number) => {
    if (!has && !word) wordStart = i;
    has = true;
  };
  let i = 0;
  const n = src.length;
  while (i < n) {
    const c = src[i]!;
    if (isSpace(c)) {
      flush(i);
      i++;
      continue;
    }
    if (c === esc && src[i + 1] === '\n') {
      i += 2; // line continuation
      continue;
    }
    if (c === '\n') {
      flush(i);
      tokens.push({ kind: 'op', value: '\n', start: i, end: i + 1 });
      i++;
      // Heredoc bodies start on the next line.
      for (const h of pendingHeredocs.splice(0)) {
        const lines: string[] = [];
        while (i < n) {
          let e = src.indexOf('\n', i);
          if (e < 0) e = n;
          let line = src.slice(i, e);
          i = Math.min(n, e + 1);
          if (h.strip) line = line.replace(/^\t+/, '');
          if (line.replace(/\r$/, '') === h.delim) break;
          lines.push(line);
        }
        h.token.heredoc = { body: lines.join('\n') };
      }
      continue;
    }
    if (c === '#' && !has && !word) {
      while (i < n && src[i] !== '\n') i++;
      continue;
    }
    if (c === esc) {
      begin(i);
      if (i + 1 < n) word += src[i + 1];
      i += 2;
      continue;
    }
    if (c === "'") {
      begin(i);
      if (dialect === 'powershell') {
        i++;
        while (i < n) {
          if (src[i] === "'" && src[i + 1] === "'") {
            word += "'";
            i += 2;
          } else if (src[i] === "'") break;
          else word += src[i++];
        }
        i++;
        continue;
      }
      const j = src.indexOf("'", i + 1);
      word += src.slice(i + 1, j < 0 ? n : j);
      i = j < 0 ? n : j + 1;
      continue;
    }
    if (c === '$' && src[i + 1] === "'" && dialect === 'sh') {
      begin(i);
      i += 2;
      while (i < n && src[i] !== "'") {
        if (src[i] === '\\' && i + 1 < n) {
          const e = src[i + 1]!;
          word += e === 'n' ? '\n' : e === 't' ? '\t' : e;
          i += 2;
        } else word += src[i++];
      }
      i++;
      continue;
    }
    if (c === '"') {
      begin(i);
      i++;
      while (i < n && src[i] !== '"') {
        const d = src[i]!;
        if (d === esc && i + 1 < n) {
          const e = src[i + 1]!;
          if (dialect === 'powershell' || '$`"\\\n'.includes(e)) word += e === '\n' ? '' : e;
          else word += d + e;
          i += 2;
        } else if (d === '$' && src[i + 1] === '(') {
          const b = readBalanced(src, i + 2);
          subs.push(b.inner);
          word += `$(${b.inner})`;
          i = b.end;
        } else if (d === '`' && dialect === 'sh') {
          let j = i + 1;
          while (j < n && src[j] !== '`') j += src[j] === '\\' ? 2 : 1;
          subs.push(src.slice(i + 1, j));
          word += src.slice(i, j + 1);
          i = j + 1;
        } else word += src[i++];
      }
      i++;
      continue;
    }
    if (c === '$' && src[i + 1] === '(') {
      begin(i);
      if (src[i + 2] === '(' && dialect === 'sh') {
        const b = readBalanced(src, i + 3); // arithmetic $(( … )): no command in it
        const end = src[b.end] === ')' ? b.end + 1 : b.end;
        word += src.slice(i, end);
        i = end;
        continue;
      }
      const b = readBalanced(src, i + 2);
      subs.push(b.inner);
      word += `$(${b.inner})`;
      i = b.end;
      continue;
    }
    if (c === '$' && src[i + 1] === '{') {
      begin(i);
      const b = readBalanced(src, i + 2, '{', '}');
      word += src.slice(i, b.end);
      i = b.end;
      continue;
    }
    if (c === '`' && dialect === 'sh') {
      begin(i);
      let j = i + 1;
      while (j < n && src[j] !== '`') j += src[j] === '\\' ? 2 : 1;
      subs.push(src.slice(i + 1, j));
      word += src.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if ((c === '<' || c === '>') && src[i + 1] === '(' && dialect === 'sh') {
      begin(i);
      const b = readBalanced(src, i + 2);
      subs.push(b.inner);
      word += `${c}(${b.inner})`;
      i = b.end;
      continue;
    }
    if (c === '<' || c === '>' || (c === '&' && src[i + 1] === '>')) {
      // A word of digits right before is a file descriptor, not an argument.
      if (/^\d+$/.test(word) && has) {
        word = '';
        has = false;
        subs = [];
      } else flush(i);
      const m = /^(&>>|&>|>>|>\||>&|<<<|<<-|<<|<&|<>|>|<)/.exec(src.slice(i, i + 3))!;
      const op = m[1]!;
      const start = i;
      i += op.length;
      if ((op === '>&' || op === '<&') && /^[\d-]/.test(src[i] ?? '')) {
        while (i < n && /[\d-]/.test(src[i]!)) i++; // 2>&1: a duplication, no target
        continue;
      }
      const tok: Token = { kind: 'redir', value: op, start, end: i };
      tokens.push(tok);
      if (op === '<<' || op === '<<-') {
        while (i < n && isSpace(src[i]!)) i++;
        let delim = '';
        while (i < n && !isSpace(src[i]!) && src[i] !== '\n' && src[i] !== ';' && src[i] !== '|' && src[i] !== '&' && src[i] !== ')') {
          const d = src[i]!;
          if (d === "'" || d === '"') {
            const j = src.indexOf(d, i + 1);
            delim += src.slice(i + 1, j < 0 ? n : j);
            i = j < 0 ? n : j + 1;
          } else if (d === '\\') {
            delim += src[i + 1] ?? '';
            i += 2;
          } else delim += src[i++];
        }
        tok.heredoc = { body: '' };
        pendingHeredocs.push({ delim, strip: op === '<<-', token: tok });
      }
      continue;
    }
    const two = src.slice(i, i + 2);
    if (two === '&&' || two === '||' || two === ';;' || two === '|&') {
      flush(i);
      tokens.push({ kind: 'op', value: two === '|&' ? '|' : two === ';;' ? ';' : two, start: i, end: i + 2 });
      i += 2;
      continue;
    }
    if (c === ';' || c === '|' || c === '&' || c === '(' || c === ')') {
      flush(i);
      tokens.push({ kind: 'op', value: c, start: i, end: i + 1 });
      i++;
      continue;
    }
    if (
      (c === '{' || c === '}') &&
      !has &&
      !word &&
      (isSpace(src[i + 1] ?? ' ') || src[i + 1] === '\n' || src[i + 1] === ';' || c === '}')
    ) {
      // `{ …; }` groups: the braces are reserved words, dropped by the parser.
      begin(i);
      word += c;
      i++;
      continue;
    }
    begin(i);
    word += c;
    i++;
  }
  flush(n);
  // A heredoc never closed (no newline after its command): its body is empty.
  return tokens;
}
