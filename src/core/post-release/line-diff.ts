/**
 * A unified diff of two texts with the same number of lines (a value changed in place, as the
 * pinning property is): what `relctl distribute --dry-run` shows. Pure.
 */
export function inPlaceDiff(before: string, after: string, file: string, context = 3): string {
  const a = before.split('\n');
  const b = after.split('\n');
  if (a.length !== b.length) throw new Error('inPlaceDiff needs texts with the same number of lines');
  const changed = a.map((line, i) => line !== b[i]).flatMap((c, i) => (c ? [i] : []));
  if (changed.length === 0) return '';
  const hunks: [number, number][] = [];
  for (const i of changed) {
    const start = Math.max(0, i - context);
    const end = Math.min(a.length - 1, i + context);
    const last = hunks[hunks.length - 1];
    if (last !== undefined && start <= last[1] + 1) last[1] = end;
    else hunks.push([start, end]);
  }
  const out = [`--- a/${file}`, `+++ b/${file}`];
  for (const [start, end] of hunks) {
    // A trailing newline leaves an empty last element: not a line of the file.
    const stop = end === a.length - 1 && a[end] === '' ? end - 1 : end;
    const count = stop - start + 1;
    out.push(`@@ -${start + 1},${count} +${start + 1},${count} @@`);
    for (let i = start; i <= stop; i++) {
      if (a[i] === b[i]) out.push(` ${a[i]}`);
      else out.push(`-${a[i]}`, `+${b[i]}`);
    }
  }
  return `${out.join('\n')}\n`;
}
