import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { advance, buildEventOf, elapsedText, progressText, type BuildEvent, type BuildProgress } from './build-progress.js';

/** Real Maven output recorded from release builds (src/core/build-failures/recorded, see its README). */
const recorded = (name: string): string[] => readFileSync(path.join(import.meta.dirname, 'build-failures', 'recorded', name), 'utf8').split('\n');
const events = (lines: string[]): BuildEvent[] => lines.map(buildEventOf).filter((e): e is BuildEvent => e !== undefined);

describe('buildEventOf on recorded release builds', () => {
  it('release plugin 3.3.1: the forked build behind [INFO] [INFO], with its reactor counter', () => {
    const modules = events(recorded('surefire-unresolved.release-3.3.1-invoker.txt')).filter((e) => e.kind === 'module');
    expect(modules[0]).toEqual({ kind: 'module', name: 'relctl demo', version: '1.0.0', index: 1, total: 3, forked: true });
    expect(modules[1]).toEqual({ kind: 'module', name: 'relctl demo core', version: '1.0.0', index: 2, total: 3, forked: true });
  });

  it('release plugin 2.5.3: the plugin goal and the reactor module of the outer build', () => {
    const found = events(recorded('release-plugin-scm-classpath.release-2.5.3.txt'));
    expect(found).toContainEqual({ kind: 'goal', goal: 'prepare' });
    expect(found).toContainEqual({ kind: 'module', name: 'Portlet Utils Parent', version: '1.1.4-SNAPSHOT', index: 1, total: 9, forked: false });
  });

  it('release plugin 2.5.2 on Maven 3.0-style output: an indented forked build, no counter', () => {
    expect(events(recorded('notice-plugin-jaxb-jdk17.release-2.5.2.txt'))).toContainEqual({ kind: 'module', name: 'CAS server security filter', version: '2.0.10.5', forked: true });
  });

  it('release plugin 3.3.1, a whole run of the demo: each goal, then the forked build\'s modules; no "Building jar:" line', () => {
    const text = events(recorded('release-3.3.1-demo-full.txt')).map((e) =>
      e.kind === 'goal' ? `goal ${e.goal}` : e.kind === 'module' ? `${e.forked ? 'forked ' : ''}${e.name} ${e.version} ${e.index}/${e.total}` : e.kind,
    );
    expect(text).toEqual([
      'start',
      'relctl demo 1.0.0-SNAPSHOT 1/3',
      'goal clean',
      'goal prepare',
      'forked relctl demo 1.0.0 1/3',
      'forked relctl demo core 1.0.0 2/3',
      'forked relctl demo webapp 1.0.0 3/3',
      'goal perform',
      'forked relctl demo 1.0.0 1/3',
    ]);
  });

  it('ignores the lines that are not a module, a release goal or a task', () => {
    for (const line of [
      '[INFO] Building jar: /tmp/x/core/target/relctl-demo-core-1.0.0.jar',
      '[INFO] [INFO] Building war: /tmp/x/webapp/target/relctl-demo-webapp-1.0.0.war',
      '[INFO] --- maven-compiler-plugin:3.10.1:compile (default-compile) @ relctl-demo-core ---',
      '[INFO] Building tar: /tmp/x.tar.gz',
      'Building demo 1.0.0',
      '[ERROR] Building demo 1.0.0',
      '',
    ]) expect(buildEventOf(line), line).toBeUndefined();
  });

  it('reads Maven 3.9 goal prefixes, perform, and Gradle tasks', () => {
    expect(buildEventOf('[INFO] --- release:3.1.1:perform (default-cli) @ demo ---')).toEqual({ kind: 'goal', goal: 'perform' });
    expect(buildEventOf('[INFO] --- maven-release-plugin:2.1:perform (default-cli) @ demo ---')).toEqual({ kind: 'goal', goal: 'perform' });
    expect(buildEventOf('> Task :core:compileJava UP-TO-DATE')).toEqual({ kind: 'task', task: ':core:compileJava' });
    expect(buildEventOf('\x1b[0m\x1b[0m[INFO] Scanning for projects...')).toEqual({ kind: 'start' });
    expect(buildEventOf('\x1b[1m[INFO] Building relctl demo 1.0.0 [1/3]\x1b[m')).toMatchObject({ kind: 'module', name: 'relctl demo', index: 1 });
  });
});

describe('progressText', () => {
  it('shows the goal, the module with its place in the reactor, and the elapsed time', () => {
    let state: BuildProgress = {};
    for (const e of events(['[INFO] --- maven-release-plugin:3.3.1:prepare (default-cli) @ relctl-demo ---', '[INFO] [INFO] Building relctl demo core 1.0.0                                    [2/3]'])) state = advance(state, e);
    expect(progressText(state, 65_000)).toBe('release:prepare · relctl demo core 1.0.0 [2/3] · 1m 05s');
    // A new goal starts a new build: the previous module is forgotten.
    state = advance(state, { kind: 'goal', goal: 'perform' });
    expect(progressText(state, 42_000)).toBe('release:perform · 42s');
    // relctl's next Maven run (not a forked one) starts over; the forked build's scan does not.
    expect(buildEventOf('[INFO] [INFO] Scanning for projects...')).toBeUndefined();
    state = advance(state, buildEventOf('[INFO] Scanning for projects...')!);
    expect(progressText(state, 1_000)).toBe('1s');
    expect(elapsedText(3_599_000)).toBe('59m 59s');
  });
});
