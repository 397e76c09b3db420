/**
 * A unified diff (`diff -u` / `git diff` format) of two versions of one file, for
 * `preflight --fix --dry-run`: `git apply` and `patch` take it as it is. Lines are compared with
 * Myers' O((N+M)D) algorithm, which is quick here because a fix changes a few lines. Pure.
 */

type Op = { kind: ' ' | '-' | '+'; line: string };

/** Splits into lines, each keeping its own line ending (a CRLF file diffs as CRLF). */
function splitLines(text: string): string[] {
  const out = text.match(/[^\n]*\n|[^\n]+$/g);
  return out === null ? [] : out;
}

/** The shortest edit script from `a` to `b` (Myers 1986, forward greedy with a trace). */
function editScript(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  let v: Int32Array = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  outer: for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        trace.push(v.slice());
        break outer;
      }
    }
  }
  // Walk the trace back from (n, m).
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 2; d >= 0 && (x > 0 || y > 0); d--) {
    v = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : v[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ kind: ' ', line: a[--x]! });
      y--;
    }
    if (d === 0) break;
    if (x === prevX) ops.push({ kind: '+', line: b[--y]! });
    else ops.push({ kind: '-', line: a[--x]! });
  }
  while (x > 0 && y > 0) {
    ops.push({ kind: ' ', line: a[--x]! });
    y--;
  }
  return ops.reverse();
}

function withNewline(kind: string, line: string): string {
  return line.endsWith('\n') ? `${kind}${line}` : `${kind}${line}\n\\ No newline at end of file\n`;
}

/**
 * The unified diff of `file` from `before` to `after` with `context` lines around each change,
 * or '' when they are equal. `before` undefined: the file is new (`--- /dev/null`).
 */
export function unifiedDiff(file: string, before: string | undefined, after: string, context = 3): string {
  if (before === after) return '';
  const a = splitLines(before ?? '');
  const b = splitLines(after);
  const ops = editScript(a, b);
  const hunks: string[] = [];
  let i = 0;
  while (i < ops.length) {
    if (ops[i]!.kind === ' ') {
      i++;
      continue;
    }
    // A hunk: `context` lines before the first change, until a run of more than 2*context unchanged lines.
    let start = i;
    while (start > 0 && i - start < context && ops[start - 1]!.kind === ' ') start--;
    let end = i;
    for (;;) {
      while (end < ops.length && ops[end]!.kind !== ' ') end++;
      let same = 0;
      while (end + same < ops.length && ops[end + same]!.kind === ' ') same++;
      if (end + same < ops.length && same <= 2 * context) end += same;
      else {
        end += Math.min(same, context);
        break;
      }
    }
    let oldLine = 1;
    let newLine = 1;
    for (let j = 0; j < start; j++) {
      if (ops[j]!.kind !== '+') oldLine++;
      if (ops[j]!.kind !== '-') newLine++;
    }
    const body = ops.slice(start, end);
    const oldCount = body.filter((o) => o.kind !== '+').length;
    const newCount = body.filter((o) => o.kind !== '-').length;
    // diff -u names the line before an empty range (0 for an empty file).
    const range = (line: number, count: number): string => (count === 1 ? `${line}` : `${count === 0 ? line - 1 : line},${count}`);
    hunks.push(`@@ -${range(oldLine, oldCount)} +${range(newLine, newCount)} @@\n${body.map((o) => withNewline(o.kind, o.line)).join('')}`);
    i = end;
  }
  const header = before === undefined ? `--- /dev/null\n+++ ${gitPath(`b/${file}`)}\n` : `--- ${gitPath(`a/${file}`)}\n+++ ${gitPath(`b/${file}`)}\n`;
  return header + hunks.join('');
}

const cEscapes: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\t': '\\t', '\n': '\\n', '\v': '\\v', '\f': '\\f', '\r': '\\r', '"': '\\"', '\\': '\\\\' };

/**
 * A path as git writes it in a diff header: C-quoted when it holds a control character, `"` or a
 * backslash, so a file name with a line break stays on the header's line (`git apply` reads it back).
 */
function gitPath(p: string): string {
  const escaped = p.replace(/[\x00-\x1f\x7f"\\]/g, (ch) => cEscapes[ch] ?? `\\${ch.charCodeAt(0).toString(8).padStart(3, '0')}`);
  return escaped === p ? p : `"${escaped}"`;
}
