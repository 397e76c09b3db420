/**
 * The last lines of a command's output that say something: what a failed stop command said
 * (`SHUTDOWN-PORT-REFUSED …`, "Tomcat did not stop"), not the blank lines and the build tool's
 * closing banner (Gradle's "* Try:" / "BUILD FAILED", Maven's "[ERROR] Re-run Maven …") after it.
 * Pure.
 */

const boilerplate: readonly RegExp[] = [
  // Gradle's failure banner and summary
  /^\* (?:Try|Get more help at|What went wrong|Exception is):?/,
  /^> (?:Run with --|Get more help at )/,
  /^BUILD (?:FAILED|SUCCESSFUL)\b/,
  /^FAILURE: Build failed with an exception\.?$/,
  /^\d+ actionable tasks?:/,
  /^(?:Deprecated Gradle features were used|You can use '--warning-mode|For more on this, please refer to|See https:\/\/docs\.gradle\.org)/,
  // Maven's separators, summary and help lines
  /^\[(?:INFO|ERROR)\] -+$/,
  /^\[INFO\] (?:BUILD (?:FAILURE|SUCCESS)|Total time:|Finished at:)/,
  /^\[ERROR\] (?:To see the full stack trace|Re-run Maven using|For more information about the errors|\[Help \d+\]|-> \[Help \d+\])/,
  /^\[ERROR\] ?$/,
];

/** Whether a line of output says something (not blank, not a build tool's banner line). */
export function isMeaningful(line: string): boolean {
  const t = line.trim();
  return t !== '' && !boilerplate.some((b) => b.test(t));
}

/** Keeps the last `max` meaningful lines handed to it, in order (bounded, whatever the output's length). */
export class MeaningfulTail {
  private readonly lines: string[] = [];
  constructor(private readonly max = 5) {}

  add(line: string): void {
    if (!isMeaningful(line)) return;
    // One line of a message, not a child's whole unbroken output.
    this.lines.push(line.trimEnd().slice(0, 300));
    if (this.lines.length > this.max) this.lines.shift();
  }

  get(): string[] {
    return [...this.lines];
  }
}
