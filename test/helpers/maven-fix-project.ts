/**
 * In-memory Maven projects for the fix rules: facts from the pure model (facts-builder), the
 * findings of the offline checks, and the plan `preflight --fix` would make, with the files after it.
 */
import { buildFacts } from '../fixtures/maven/facts-builder.js';
import type { ProjectFacts } from '../../src/checks/facts.js';
import { parseMavenSettings } from '../../src/core/maven-settings.js';
import { checks } from '../../src/checks/index.js';
import { runChecks } from '../../src/checks/run-checks.js';
import { fixRules } from '../../src/checks/fixes/index.js';
import { planFixes, type PlannedFix } from '../../src/checks/fixes/plan.js';
import type { FixOptions } from '../../src/checks/fixes/types.js';

export const settingsFile = '/home/.m2/settings.xml';
const env = { CENTRAL_TOKEN_USERNAME: 'u', CENTRAL_TOKEN_PASSWORD: 'p' };

export interface MavenProject {
  files: Record<string, string>;
  repository?: Record<string, string>;
  /** Absent: no settings file. */
  settings?: string;
  /** Other project files the fixes may read or edit (a CI settings file), by project-relative path. */
  texts?: Record<string, string>;
  /** Changes the facts before the checks run (CI settings files, git tags, deploy evidence). */
  adjust?: (facts: ProjectFacts) => void;
  options?: Partial<FixOptions>;
}

export function factsOf(p: MavenProject): ProjectFacts {
  const parsed = p.settings === undefined ? undefined : parseMavenSettings(p.settings, { env, home: '/home' });
  const servers = parsed?.ok === true ? parsed.settings.servers : [];
  const facts = buildFacts({ files: p.files, ...(p.repository === undefined ? {} : { repository: p.repository }), servers, settingsFound: p.settings !== undefined });
  p.adjust?.(facts);
  return facts;
}

export function codesOf(p: MavenProject): string[] {
  return [...new Set(runChecks(checks, factsOf(p), { offline: true }).map((f) => f.code))].sort();
}

/** Plans the fixes of `p` the way `preflight --fix` does, and the project after them. */
export function fixProject(p: MavenProject): { plan: PlannedFix; after: MavenProject } {
  const facts = factsOf(p);
  const texts: Record<string, string | undefined> = { ...p.files, ...p.texts, [settingsFile]: p.settings };
  const plan = planFixes(
    fixRules,
    {
      facts,
      findings: runChecks(checks, facts, { offline: true }),
      read: (file) => (texts[file] === undefined ? undefined : { file, text: texts[file]! }),
      options: { fixMetadata: false, usernameVariable: 'CENTRAL_TOKEN_USERNAME', passwordVariable: 'CENTRAL_TOKEN_PASSWORD', settingsFile, ...p.options },
    },
    () => true,
  );
  const after: MavenProject = { ...p, files: { ...p.files }, texts: { ...p.texts } };
  for (const f of plan.files) {
    if (f.file === settingsFile) after.settings = f.after;
    else if (f.file in after.files) after.files[f.file] = f.after;
    else after.texts![f.file] = f.after;
  }
  return { plan, after };
}

export const settingsWith = (servers: string): string => `<?xml version="1.0"?>\n<settings>\n  <servers>\n${servers}  </servers>\n</settings>\n`;
export const server = (id: string): string => `    <server>\n      <id>${id}</id>\n      <username>u</username>\n      <password>p</password>\n    </server>\n`;
