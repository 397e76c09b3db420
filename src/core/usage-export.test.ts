import { describe, expect, it } from 'vitest';
import { decodeUsageExport, UsageExportProblem } from './usage-export.js';
import { budgetVerdict, costGroups, freeTier, validatePublishingLimits } from './publishing-budget.js';

describe('the Usage Center export', () => {
  it('sums the namespaces of the organization, sizes with or without units', () => {
    const csv = '\uFEFFNamespace,Release Count,File Count,Total Release Size\r\norg.example,2,120,"4.5 MB"\r\nio.github.someone,1,40,1500000\r\n';
    expect(decodeUsageExport(csv)).toEqual({ usage: { releases: 3, files: 160, bytes: 6_000_000 }, namespaces: ['org.example', 'io.github.someone'], restricted: [] });
  });
  it('applies the unit of the column title and names the withheld rows', () => {
    const csv = 'namespace,release count,file count,release size (MB)\norg.example,1,10,2\norg.other,Restricted,Restricted,Restricted\n';
    expect(decodeUsageExport(csv)).toEqual({ usage: { releases: 1, files: 10, bytes: 2_000_000 }, namespaces: ['org.example'], restricted: ['org.other'] });
  });
  it('refuses what is not the export, saying why', () => {
    expect(() => decodeUsageExport('name,downloads\nx,1\n')).toThrow(/no Namespace, Release Count, File Count, Release Size column/);
    expect(() => decodeUsageExport('Namespace,Release Count,File Count,Release Size\norg.example,two,1,1\n')).toThrow(UsageExportProblem);
    expect(() => decodeUsageExport('')).toThrow(/empty/);
  });
});

describe('publishingLimits and the verdict', () => {
  it('defaults to the free tier, false is Publisher Pro, bad values are named', () => {
    expect(validatePublishingLimits({})).toEqual({ problems: [], value: freeTier });
    expect(validatePublishingLimits({ bytes: '20MB', releases: 5 }).value).toEqual({ files: 300, bytes: 20_000_000, releases: 5 });
    expect(validatePublishingLimits(false)).toEqual({ problems: [], value: false });
    expect(validatePublishingLimits({ files: -1, size: 3 }).problems).toEqual([
      'publishingLimits.files must be a whole number of 0 or more',
      'publishingLimits.size is not a known key (known: files, bytes, releases)',
    ]);
    expect(validatePublishingLimits(true).problems[0]).toMatch(/must be false \(Publisher Pro/);
  });
  it('is over on each metric the release would pass, and never for Publisher Pro', () => {
    const used = { releases: 3, files: 100, bytes: 1 };
    expect(budgetVerdict(freeTier, used, { releases: 1, files: 250, bytes: 10 }, '2026-12', []).over).toEqual(['releases', 'files']);
    expect(budgetVerdict(false, used, { releases: 1, files: 250, bytes: 10 }, '2026-12', []).over).toEqual([]);
  });
  it('says which files are optional: .sha256/.sha512, checksums of signatures, extra classifiers', () => {
    const f = (p: string, bytes = 10) => ({ path: `org/example/demo/1.0/${p}`, bytes });
    const groups = costGroups([f('demo-1.0.jar', 100), f('demo-1.0.jar.sha256'), f('demo-1.0.jar.asc.md5'), f('demo-1.0-tests.jar', 50), f('demo-1.0-sources.jar')]);
    expect(groups.map((g) => [g.what, g.files, g.optional])).toEqual([
      ['classifier "tests" (+ signatures, checksums)', 1, true],
      ['.sha256/.sha512 checksums', 1, true],
      ['checksums of signatures (.asc.md5/.asc.sha1…)', 1, true],
      ['POMs, main artifacts, signatures, .md5/.sha1', 1, false],
      ['sources jars (+ signatures, checksums)', 1, false],
    ]);
  });
});
