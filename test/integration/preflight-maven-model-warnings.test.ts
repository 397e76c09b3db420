/**
 * duplicate-declaration and plugin-version-missing claim to name what Maven's own model
 * validation names. Real Maven (offline, Debian's packaged build) is the judge: `mvn validate`
 * with the release profile active prints its model warnings with file and line, and preflight must
 * report exactly those places, no more, no fewer.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { runMaven, writeMavenSettings } from '../helpers/maven.js';

const fixture = path.resolve(import.meta.dirname, '../fixtures/maven/model-warnings');
const work = await mkdtemp(path.join(os.tmpdir(), 'relctl-model-warnings-'));
afterAll(() => rm(work, { recursive: true, force: true }));

/** `file:line` of each model warning in Maven's output (its own POM's, or another one's by path). */
function mavenPlaces(output: string, root: string): string[] {
  const places = new Set<string>();
  let current = '';
  for (const line of output.split('\n')) {
    const header = /building the effective model for ([^:]+):([^:]+):/.exec(line);
    if (header !== null) current = header[2]!;
    const m = /\[WARNING\] '(?:[^']*)' (?:for \S+ is missing|must be unique).*@ (?:\S+, (\/\S+), )?line (\d+)/.exec(line);
    if (m === null) continue;
    const file = m[1] !== undefined ? path.relative(root, m[1]) : current === 'kit-core' ? 'a/pom.xml' : 'pom.xml';
    places.add(`${file}:${m[2]}`);
  }
  return [...places].sort();
}

describe('Maven model warnings, side by side with mvn validate', () => {
  it('reports the duplicate declarations and missing plugin versions at exactly the lines Maven names', async () => {
    const dir = path.join(work, 'kit');
    await cp(fixture, dir, { recursive: true });
    const settings = await writeMavenSettings(path.join(work, 'settings.xml'));
    const maven = await runMaven(['-o', '-Prelease', 'validate'], { cwd: dir, settings, timeoutMs: 120_000 });
    const expected = mavenPlaces(maven.output, dir);
    // The fixture has each kind at least once, so an empty parse cannot pass for agreement.
    expect(expected.length).toBeGreaterThanOrEqual(7);

    const r = await runCli(['preflight', '--offline', '--json', '--only', 'descriptors', '--cwd', dir], { home: work });
    const doc = JSON.parse(r.stdout) as { findings: { code: string; file?: string; line?: number; severity: string }[] };
    const ours = doc.findings.filter((f) => f.code === 'duplicate-declaration' || f.code === 'plugin-version-missing');
    expect(ours.every((f) => f.severity === 'warning')).toBe(true);
    expect(ours.map((f) => `${f.file}:${f.line}`).sort()).toEqual(expected);
  }, 150_000);
});
