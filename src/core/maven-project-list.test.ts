import { describe, expect, it } from 'vitest';
import { projectListEntries, selectedProjects, type ProjectListRequest, type ReactorProject } from './maven-project-list.js';

// The reactor Maven 3.8.7 was run on for these cases: root aggregates agg (which aggregates a and b) and c.
const reactor: ReactorProject[] = [
  { dir: '', file: 'pom.xml', groupId: 'g', artifactId: 'root', modules: ['agg', 'c'] },
  { dir: 'agg', file: 'agg/pom.xml', groupId: 'g', artifactId: 'agg', modules: ['agg/a', 'agg/b'] },
  { dir: 'agg/a', file: 'agg/a/pom.xml', groupId: 'g', artifactId: 'a', modules: [] },
  { dir: 'agg/b', file: 'agg/b/pom.xml', groupId: 'g', artifactId: 'b', modules: [] },
  { dir: 'c', file: 'c/pom.xml', groupId: 'g', artifactId: 'c', modules: [] },
];

const select = (value: string, extra: Omit<ProjectListRequest, 'projects'> = {}, base = ''): string[] | undefined =>
  selectedProjects({ projects: projectListEntries(value), ...extra }, base, reactor.filter((p) => base === '' || p.dir === base || p.dir.startsWith(`${base}/`)))?.map((p) => p.artifactId!);

describe('the -pl project list, as Maven applies it', () => {
  it.each([
    // What Maven 3.8.7 built for each list (mvn -pl LIST validate), and the aggregator's modules Maven 3.9 adds to a selection.
    ['-:agg', ['root', 'a', 'b', 'c']],
    ['!:agg', ['root', 'a', 'b', 'c']],
    ['!agg/a,!c', ['root', 'agg', 'b']],
    ['!.', ['agg', 'a', 'b', 'c']],
    ['g:c', ['c']],
    ['+c', ['c']],
    [' c , agg/b', ['b', 'c']],
    ['.', ['root', 'agg', 'a', 'b', 'c']],
    [':agg', ['agg', 'a', 'b']],
    ['agg/pom.xml', ['agg', 'a', 'b']],
    ['./agg/', ['agg', 'a', 'b']],
    ['?:nope,c', ['c']],
    [':agg,!:b', ['agg', 'a']],
  ])('-pl %s', (value, expected) => {
    expect(select(value)).toEqual(expected);
  });

  it('an entry that names no project: unknown (Maven stops: "Could not find the selected project in the reactor")', () => {
    expect(select('x:c')).toBeUndefined();
    expect(select('!nowhere')).toBeUndefined();
  });

  it('paths are relative to the -f folder; -N keeps the base project only', () => {
    expect(select('a', {}, 'agg')).toEqual(['a']);
    expect(select('agg/a', {}, 'agg')).toBeUndefined();
    expect(select('!a', {}, 'agg')).toEqual(['agg', 'b']);
    expect(select(':agg', { nonRecursive: true })).toBeUndefined();
    expect(selectedProjects({ nonRecursive: true }, 'agg', reactor)?.map((p) => p.artifactId)).toEqual(['agg']);
  });

  it('-am / -amd take dependencies relctl does not resolve: everything but the exclusions may be built', () => {
    expect(select('c,!:b', { alsoMake: true })).toEqual(['root', 'agg', 'a', 'c']);
    expect(select(':a', { alsoMakeDependents: true })).toEqual(['root', 'agg', 'a', 'b', 'c']);
    expect(select('!c', { alsoMake: true })).toEqual(['root', 'agg', 'a', 'b']);
  });
});
