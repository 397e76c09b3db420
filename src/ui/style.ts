/**
 * The few text styles relctl uses. With colour on they are chalk's; otherwise identity
 * functions, so CI, pipes and --json never load chalk at all (start-up time).
 */
export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

const same = (text: string): string => text;
export const plainStyle: Style = { bold: same, dim: same, red: same, green: same, yellow: same, cyan: same };

export async function loadColorStyle(): Promise<Style> {
  const { Chalk } = await import('chalk');
  return new Chalk({ level: 1 });
}
