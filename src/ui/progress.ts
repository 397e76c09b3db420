import type { Output, Spinner } from './output.js';

/**
 * Progress of long work, on stderr only (stdout keeps its one result or JSON document): on a
 * terminal one line updated in place, elsewhere (CI, pipes, --json) a plain line every
 * `everyMs`. Nothing shows for work that ends within `afterMs`, so short runs print what they
 * always printed.
 */
export interface Progress {
  stop(): void;
}

export function startProgress(out: Output, describe: () => string, options: { afterMs?: number; everyMs?: number } = {}): Progress {
  const afterMs = options.afterMs ?? 2000;
  const everyMs = options.everyMs ?? 5000;
  let spinner: Spinner | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = (): void => {
    if (stopped) return;
    if (out.interactive) {
      if (spinner === undefined) {
        void out.spinner(describe()).then((s) => {
          if (stopped) s.stop();
          else spinner = s;
        });
      } else spinner.update(describe());
      timer = setTimeout(tick, 250);
    } else {
      out.info(describe());
      timer = setTimeout(tick, everyMs);
    }
    timer.unref();
  };
  timer = setTimeout(tick, out.interactive ? afterMs : everyMs);
  timer.unref();
  return {
    stop: () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      spinner?.stop();
    },
  };
}

/** `1.2 GiB` style sizes for progress and plans. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** `upload: 300 MiB of 1.0 GiB (29%)`. */
export function uploadProgressText(sent: number, total: number): string {
  const percent = total === 0 ? 0 : Math.floor((Math.min(sent, total) / total) * 100);
  return `upload: ${sizeText(sent)} of ${sizeText(total)} (${percent}%)`;
}
