import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { git, gitRepo } from './temp.js';

/**
 * Builds real git histories for the release-notes tests: commits with any message (multi-line,
 * non-ASCII), tags, merge commits, and the release tools' own commits around a tag.
 */
export class History {
  private n = 0;
  constructor(
    readonly dir: string,
    readonly home: string,
  ) {}

  static async create(dir: string, home: string, files: Record<string, string>): Promise<History> {
    await gitRepo(dir, home, files);
    return new History(dir, home);
  }

  /** One commit touching its own line of CHANGES.txt; returns the full hash. */
  async commit(message: string): Promise<string> {
    this.n += 1;
    await appendFile(path.join(this.dir, 'CHANGES.txt'), `${this.n} ${message.split('\n', 1)[0]}\n`);
    await git(this.dir, this.home, 'add', '-A');
    await git(this.dir, this.home, 'commit', '-q', '-m', message);
    return (await git(this.dir, this.home, 'rev-parse', 'HEAD')).trim();
  }

  async tag(name: string): Promise<void> {
    await git(this.dir, this.home, 'tag', '-a', name, '-m', name);
  }

  /** A branch with these commits, merged back with a merge commit (--no-ff). */
  async merged(branch: string, messages: string[]): Promise<void> {
    await git(this.dir, this.home, 'checkout', '-q', '-b', branch);
    for (const m of messages) await this.commit(m);
    await git(this.dir, this.home, 'checkout', '-q', 'main');
    await git(this.dir, this.home, 'merge', '-q', '--no-ff', '-m', `Merge branch '${branch}'`, branch);
  }

  /** What `mvn release:prepare` leaves: the prepare commit, the tag, the next-iteration commit. */
  async mavenRelease(artifactId: string, version: string): Promise<void> {
    await this.commit(`[maven-release-plugin] prepare release ${artifactId}-${version}`);
    await this.tag(`${artifactId}-${version}`);
    await this.commit('[maven-release-plugin] prepare for next development iteration');
  }

  /** The Gradle release plugin's pre-tag and new-version commits around its tag. */
  async gradleRelease(tag: string, next: string): Promise<void> {
    await this.commit(`[Gradle Release Plugin] - pre tag commit:  '${tag}'.`);
    await this.tag(tag);
    await this.commit(`[Gradle Release Plugin] - new version commit:  '${next}'.`);
  }
}
