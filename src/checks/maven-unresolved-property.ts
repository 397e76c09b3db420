import type { Finding } from '../core/findings.js';
import { hasUnresolved, type Origin } from '../core/pom/index.js';
import type { Check } from './types.js';
import type { MavenModuleFacts } from '../build-tools/maven/facts.js';
import { at, dedupe, fromWhere, isMaven, publishedModules, originAt } from './maven-support.js';
import { centralRulesApply, ignoresDistribution } from './route.js';

/**
 * A `${...}` still in an effective URL or developer field after interpolation ships as written:
 * the published POM would carry a placeholder (the portal rejects some, users see all). Past an
 * unresolved parent the property may be defined there, so those modules stay quiet.
 */
// References Maven resolves from its model, settings or run (`${project.build.directory}`,
// `${env.X}`, `${maven.build.timestamp}`) are not a missing property: relctl cannot know them all.
const builtIn = /^(project|pom|parent|settings|session|maven|env|java|os|user|line|file|path)\.|^(basedir|baseUri)$/;

/** The `${name}` references of a value that no POM property could ever fill. */
function missingNames(value: string): string[] {
  return [...value.matchAll(/\$\{([^${}]*)\}/g)].map((m) => m[1]!.trim()).filter((n) => !builtIn.test(n));
}

const fields = ['id', 'name', 'email', 'url', 'organization', 'organizationUrl'] as const;

/** flatten-maven-plugin writes the published POM with the version resolved (CI-friendly versions). */
function flattens(module: MavenModuleFacts): boolean {
  return module.effective.plugins.some((p) => p.artifactId === 'flatten-maven-plugin' && !p.managed);
}

export const mavenUnresolvedProperty: Check = {
  id: 'maven-unresolved-property',
  codes: ['unresolved-property'],
  title: 'effective version, name, description, URLs and developer fields hold no ${...} placeholder',
  appliesTo: isMaven,
  run(facts) {
    if (!centralRulesApply(facts)) return [];
    const findings: Finding[] = [];
    const distribution = !ignoresDistribution(facts);
    // A version placeholder is usually shared by the whole reactor (`${revision}` in every
    // <parent>): reported once, at the first module, with how many others carry it.
    const versions = new Map<string, { module: MavenModuleFacts; value: string; line: number; others: number }>();
    for (const module of publishedModules(facts)) {
      if (module.parentUnresolved === true) continue;
      const eff = module.effective;
      // A relocation POM carries no metadata of its own: only its coordinates and distribution count.
      const metadata = module.raw.relocation === undefined;
      const version = eff.version;
      if (version !== undefined && version.includes('${') && hasUnresolved(version) && !flattens(module)) {
        const name = missingNames(version)[0];
        const seen = name === undefined ? undefined : versions.get(name);
        if (seen !== undefined) seen.others++;
        else if (name !== undefined) versions.set(name, { module, value: version, line: module.raw.version?.line ?? module.raw.parent?.line ?? module.raw.projectLine, others: 0 });
      }
      // Most values hold no `${`: test the text first, build a record only for the rare hit.
      const values: { what: string; value: string; origin: Origin }[] = [];
      const consider = (what: string, value: string | undefined, origin: Origin): void => {
        if (value !== undefined && value.includes('${')) values.push({ what, value, origin });
      };
      if (metadata) {
        if (eff.name !== undefined) consider('<name>', eff.name.value, eff.name.origin);
        if (eff.description !== undefined) consider('<description>', eff.description.value, eff.description.origin);
        if (eff.url !== undefined) consider('<url>', eff.url.value, eff.url.origin);
        if (eff.scmUrl !== undefined) consider('<scm><url>', eff.scmUrl.value, eff.scmUrl.origin);
        for (const l of eff.licenseUrls) consider('the license <url>', l.value, l.origin);
        const devs = eff.developers;
        if (devs !== undefined) {
          for (const d of devs.value) {
            if (!fields.some((k) => d[k]?.includes('${') === true)) continue;
            // Inside the project the developer's own line is known; outside, report at the <parent>.
            const origin = devs.origin.pom.file !== undefined ? { ...devs.origin, line: d.line } : devs.origin;
            for (const k of fields) consider(`the developer <${k}>`, d[k], origin);
          }
        }
      }
      if (distribution && eff.repository?.url !== undefined) consider('the release repository <url>', eff.repository.url.value, eff.repository.url.origin);
      for (const v of values) {
        if (!hasUnresolved(v.value)) continue;
        const name = missingNames(v.value)[0];
        if (name === undefined) continue;
        findings.push({
          code: 'unresolved-property',
          severity: 'error',
          message: `${v.what} of ${eff.coords} (${fromWhere(v.origin, module)}) is ${v.value} after interpolation: \${${name}} is defined nowhere in the POM, its parents or the environment, so the published POM would carry the placeholder.`,
          ...at(originAt(facts, module, v.origin)),
          fix: `Define the property ${name} in <properties> (of this POM or a parent), or write the value out.`,
        });
      }
    }
    for (const [name, { module, value, line, others }] of versions) {
      const also = others === 0 ? '' : ` (and ${others} other module${others === 1 ? '' : 's'})`;
      findings.push({
        code: 'unresolved-property',
        severity: 'error',
        message: `The <version> of ${module.effective.coords}${also} is ${value} after interpolation: \${${name}} is defined nowhere in the POMs, .mvn/maven.config or the settings, so the published POM would carry the placeholder as its version.`,
        ...at({ file: module.file, line, module: module.effective.coords }),
        fix: `Define ${name} in the top-level POM's <properties> or in .mvn/maven.config (-D${name}=...), or add flatten-maven-plugin so the published POM carries the resolved version.`,
      });
    }
    return dedupe(findings);
  },
};
