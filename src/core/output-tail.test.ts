import { describe, expect, it } from 'vitest';
import { MeaningfulTail, isMeaningful } from './output-tail.js';

describe('MeaningfulTail', () => {
  it("keeps what a failed Gradle task said, not Gradle's banner around it", () => {
    const tail = new MeaningfulTail();
    const gradle = ['> Task :tomcatStop FAILED', 'SHUTDOWN-PORT-REFUSED 127.0.0.1:8005', '', 'FAILURE: Build failed with an exception.', '', '* What went wrong:', "Execution failed for task ':tomcatStop'.", '', '* Try:', '> Run with --stacktrace option to get the stack trace.', '> Run with --info or --debug option to get more log output.', '> Get more help at https://help.gradle.org.', '', 'BUILD FAILED in 2s', '1 actionable task: 1 executed'];
    for (const l of gradle) tail.add(l);
    expect(tail.get()).toEqual(['> Task :tomcatStop FAILED', 'SHUTDOWN-PORT-REFUSED 127.0.0.1:8005', "Execution failed for task ':tomcatStop'."]);
  });

  it("drops Maven's closing lines; keeps the last five, each at most 300 characters", () => {
    expect(['[INFO] ------------------------------------------------------------------------', '[INFO] BUILD FAILURE', '[ERROR] ', '[ERROR] Re-run Maven using the -X switch to enable full debug logging.', '[ERROR] -> [Help 1]'].filter(isMeaningful)).toEqual([]);
    const tail = new MeaningfulTail();
    for (let i = 0; i < 8; i++) tail.add(`line ${i}`);
    tail.add('x'.repeat(1000));
    expect(tail.get()).toEqual(['line 4', 'line 5', 'line 6', 'line 7', 'x'.repeat(300)]);
  });
});
