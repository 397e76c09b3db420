/**
 * Whether a POM of the project is never deployed, by the build's own evidence: the deploy skipped
 * in it (`maven.deploy.skip`, the deploy plugin's `<skip>`), or the CI's `mvn … deploy` commands
 * (`-f` on a sub-build, a `-pl` project list that leaves it out, read as Maven reads it) none of
 * which deploys it nor any module that inherits from it. The fixes then leave its distribution
 * alone: a root aggregator whose coordinates were never published needs no
 * `<distributionManagement>`. Pure.
 */
import path from 'node:path';
import type { MavenFacts, MavenModuleFacts } from '../../build-tools/maven/facts.js';
import { selectedProjects, type ReactorProject } from '../../core/maven-project-list.js';

/** The module folder a `-f` value names (`sub/pom.xml`, `sub`, `./sub/`): '' for the root. */
function folderOf(file: string): string {
  const posix = file.replace(/\\/g, '/');
  const dir = /\.xml$/i.test(posix) ? path.posix.dirname(posix) : posix;
  const norm = path.posix.normalize(dir).replace(/\/+$/, '');
  return norm === '.' ? '' : norm;
}

const under = (dir: string, base: string): boolean => base === '' || dir === base || dir.startsWith(`${base}/`);

/** A module as the project list sees it: its folder, POM, coordinates and the folders its `<modules>` name. */
function reactorProject(m: MavenModuleFacts): ReactorProject & { module: MavenModuleFacts } {
  const modules = m.raw.modules.map((x) => folderOf(path.posix.join(m.dir, x.value)));
  const p: ReactorProject & { module: MavenModuleFacts } = { dir: m.dir, file: m.file, modules, module: m };
  if (m.effective.groupId !== undefined) p.groupId = m.effective.groupId;
  if (m.effective.artifactId !== undefined) p.artifactId = m.effective.artifactId;
  return p;
}

/** Why `module` is never deployed, or undefined when it may be (or nothing says). */
export function neverDeployed(maven: MavenFacts, module: MavenModuleFacts): string | undefined {
  if (module.skips?.deploy === true) return `${module.file} skips the deploy (maven.deploy.skip or the deploy plugin's <skip>)`;
  const commands = maven.ciDeploys ?? [];
  if (commands.length === 0 || commands.some((c) => 'unknown' in c)) return undefined;
  const deployed = new Set<string>();
  for (const c of commands) {
    if ('unknown' in c) continue;
    const base = c.file === undefined ? '' : folderOf(c.file);
    const reactor = maven.modules.filter((m) => under(m.dir, base)).map(reactorProject);
    const picked = selectedProjects(c, base, reactor);
    // A list relctl cannot apply (an entry naming no module it knows): nothing is taken as evidence.
    if (picked === undefined) return undefined;
    for (const { module: m } of picked) {
      deployed.add(m.file);
      // A deployed module's parents in the project are published with it (consumers resolve them).
      for (const link of m.chain) if (link.file !== undefined) deployed.add(link.file);
    }
  }
  if (deployed.has(module.file)) return undefined;
  const described = commands
    .map((c) => ('unknown' in c ? '' : `mvn${c.file === undefined ? '' : ` -f ${c.file}`}${c.projects === undefined ? '' : ` -pl ${c.projects.join(',')}`} deploy in ${c.via}`))
    .filter((d, i, all) => all.indexOf(d) === i);
  return `the release deploys with ${described.join(' and ')}, which never deploys ${module.file} nor a module inheriting from it`;
}
