import { StringDecoder } from 'node:string_decoder';

/**
 * A child's output as whole lines, for the callers that mask and echo it (the smoke log,
 * `--verbose`): masking works on lines, so a secret split across two chunks is still caught. UTF-8
 * split across chunks is decoded whole; a line that never ends is cut every `maxLine` characters
 * so a child printing without newlines cannot grow memory.
 */
export function outputLines(stream: NodeJS.ReadableStream | null | undefined, emit: (line: string) => void, maxLine = 64 * 1024): Promise<void> {
  if (stream === null || stream === undefined) return Promise.resolve();
  const decoder = new StringDecoder('utf8');
  let pending = '';
  const take = (text: string): void => {
    // pending is at most maxLine long, so each chunk costs time linear in its own size.
    const lines = (pending + text).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) emit(line.replace(/\r$/, ''));
    while (pending.length > maxLine) {
      emit(pending.slice(0, maxLine));
      pending = pending.slice(maxLine);
    }
  };
  return new Promise((resolve) => {
    stream.on('data', (chunk: Buffer | string) => take(typeof chunk === 'string' ? chunk : decoder.write(chunk)));
    stream.on('close', () => {
      take(decoder.end());
      if (pending !== '') emit(pending);
      pending = '';
      resolve();
    });
  });
}
