/**
 * Maps character offsets to 1-based line numbers. Built once per file (one linear scan), then
 * every lookup is a binary search, so reporting many findings never rescans the text.
 */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    let i = text.indexOf('\n');
    while (i !== -1) {
      this.starts.push(i + 1);
      i = text.indexOf('\n', i + 1);
    }
  }

  /** 1-based line of `offset`; offsets past the end map to the last line. */
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  get lineCount(): number {
    return this.starts.length;
  }
}
