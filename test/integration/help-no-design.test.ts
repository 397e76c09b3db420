import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

/**
 * Help is read by users, who do not have the design document (issue 43, item 9): no help text
 * cites "DESIGN §n". The fleet's help once ended "(DESIGN §13)".
 */
describe('relctl help', () => {
  it('cites no section of the design document, at the top level or in the fleet commands', async () => {
    for (const args of [['--help'], ['fleet', '--help'], ...['list', 'audit', 'fix', 'report', 'rehearse'].map((c) => ['fleet', c, '--help'])]) {
      const r = await runCli(args);
      expect(r.exitCode, args.join(' ')).toBe(0);
      expect(r.stdout, args.join(' ')).not.toMatch(/DESIGN/);
    }
    const fleet = await runCli(['fleet', '--help']);
    expect(fleet.stdout).toContain('every repository of an ecosystem at once: list, audit, fix, report, rehearse');
  });
});
