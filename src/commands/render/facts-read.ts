import type { ProjectFacts, ReleaseFacts } from '../../checks/facts.js';

/**
 * What preflight read, for --verbose: the build files, the settings, the local repository and
 * git's answers. Names and ids only: server passwords, tokens and key material never appear.
 */
export function factsRead(facts: ProjectFacts): string[] {
  const lines: string[] = [`project ${facts.root} (${facts.buildTool})`];
  const m = facts.maven;
  if (m !== undefined) {
    for (const mod of m.modules) {
      const e = mod.effective;
      const chain = mod.chain.slice(1).map((p) => `${p.id}${p.file === undefined ? '' : ` from ${p.file}`}`);
      lines.push(`read ${mod.file}: ${e.groupId ?? '?'}:${e.artifactId ?? '?'}:${e.version ?? '?'} (${e.packaging})${chain.length === 0 ? '' : `, parents ${chain.join(' <- ')}`}`);
    }
    const s = m.settings;
    for (const f of [s, ...(s.alternatives ?? [])]) {
      const ids = f.servers.map((x) => x.id).join(', ');
      const via = f.via === undefined ? '' : ` (-s in ${f.via})`;
      lines.push(`settings ${f.file}${via}: ${!f.found ? 'not found' : !f.parsed ? 'unreadable' : `servers ${ids === '' ? '(none)' : ids} (credentials not shown)`}`);
    }
    lines.push(`local repository ${m.localRepo}`);
    if (m.tokenFromEnv) lines.push('token: RELCTL_TOKEN_USERNAME / RELCTL_TOKEN_PASSWORD (values not shown)');
  }
  const g = facts.gradle;
  if (g !== undefined) {
    lines.push(`read ${g.settingsFile ?? '(no settings.gradle)'}: root project ${g.rootProjectName}`);
    for (const p of g.projects) {
      if (p.buildFileMissing !== undefined) lines.push(`no build file for project ${p.path}: ${p.buildFileMissing.why} (looked for ${p.buildFileMissing.lookedFor.join(', ')}); its checks were skipped`);
      else lines.push(`read ${p.buildFile ?? `${p.dir} (no build file)`}: project ${p.path}, ${p.plugins.length} plugin(s), ${p.repositories.length} repository URL(s)`);
    }
    lines.push(`user properties ${g.user.display}: ${g.user.state}, keys ${g.user.keys.join(', ') || '(none)'} (values not shown)`);
  }
  const r = facts.release;
  if (r !== undefined) {
    const version = r.currentVersion ?? (r.versionComputed === true ? `computed by ${r.versionComputedBy ?? 'the build'}` : '?');
    lines.push(`version ${version}${r.versionFile === undefined || r.currentVersion === undefined ? '' : ` (${r.versionFile}${r.versionLine === undefined ? '' : `:${r.versionLine}`})`}, release tag ${releaseTagText(r)}${r.releaseTagExists === true ? ' (exists)' : ''}`);
    if (r.artifactId !== undefined) lines.push(`tag name from ${r.artifactId}: ${r.artifactIdFrom ?? 'the build'}`);
  }
  const key = facts.signingKey;
  if (key !== undefined) lines.push(`signing key ${key.fingerprint}: v${key.format.version}, ${key.format.algorithm} (${key.from})`);
  const git = facts.git;
  if (git !== undefined) {
    lines.push(
      git.isRepository
        ? `git: ${git.detached ? 'detached HEAD' : `branch ${git.branch}`} at ${git.headCommit?.slice(0, 12) ?? '(no commit)'}, ${git.dirtyFiles.length} uncommitted change(s), ${git.tags.length} tag(s)`
        : `git: ${git.unavailable ?? 'not a repository'}`,
    );
  }
  return lines;
}

/** The release tag, or why it is not known (never a bare "?"). */
function releaseTagText(r: ReleaseFacts): string {
  if (r.releaseTag !== undefined) return r.tagTemplateLearned === true ? `${r.releaseTag} (format ${r.tagTemplate ?? ''} learned from the tags)` : r.releaseTag;
  if (r.tagTemplateUnknown === true) return `unknown (the tag format ${r.tagTemplate ?? ''} has placeholders relctl cannot fill)`;
  if (r.currentVersion === undefined || r.currentVersion.includes('${')) return 'unknown until the version is known';
  return 'unknown';
}
