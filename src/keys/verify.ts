import type { CommandContext } from '../io/command-context.js';
import { isReleasePublished } from '../io/published.js';
import type { Finding } from '../core/findings.js';
import { validateDeployment, type ComponentVerdict } from '../core/validation/index.js';
import { isArtifact } from '../core/validation/layout.js';
import type { KeyServers, PublicRepository } from '../portal/keyservers.js';
import { ruleFixes } from '../portal/rule-fixes.js';
import { httpFor, keyServersFor, publicRepoFor } from '../portal/session.js';
import { sizeText, startProgress } from '../ui/progress.js';
import type { ArtifactSet } from './artifacts.js';
import { createSignatureVerifier, type SignatureIssuer } from './signature-verifier.js';

/**
 * `verify`: the portal's rule set on local artifacts. Signatures are checked against the key as
 * the PRIMARY key server serves it (what the portal uses), fetched once per issuer.
 */
export async function verifyArtifacts(
  set: ArtifactSet,
  deps: {
    keyServers: KeyServers;
    publicRepo: Pick<PublicRepository, 'fetchPom'>;
    /** Already published? (io/published.ts: the portal with a token, else the public repository). */
    isPublished: (groupId: string, artifactId: string, version: string) => Promise<boolean>;
    log?: (line: string) => void;
  },
): Promise<{ verdicts: ComponentVerdict[]; findings: Finding[] }> {
  const keyCache = new Map<string, Promise<string | undefined>>();
  const lookup = (issuer: SignatureIssuer): Promise<string | undefined> => {
    const id = issuer.fingerprint ?? issuer.keyId;
    let pending = keyCache.get(id);
    if (pending === undefined) {
      deps.log?.(`looking up key ${id} on the primary key server`);
      pending = (issuer.fingerprint !== undefined ? deps.keyServers.primaryByFingerprint(issuer.fingerprint) : deps.keyServers.primaryByKeyId(issuer.keyId)).then(
        (r) => (r.found ? r.armored : undefined),
      );
      keyCache.set(id, pending);
    }
    return pending;
  };
  const verdicts = await validateDeployment(set.files, {
    fetchPom: (g, a, v) => deps.publicRepo.fetchPom(g, a, v),
    isPublished: deps.isPublished,
    verifySignature: createSignatureVerifier(lookup),
  });
  const findings: Finding[] = verdicts.flatMap((v) =>
    v.violations.map((x) => ({
      code: x.code,
      severity: 'error' as const,
      message: x.message,
      ...(x.file === undefined ? {} : { file: set.origin.get(x.file) ?? x.file }),
      module: `${v.groupId}:${v.artifactId}`,
      fix: ruleFixes[x.code],
    })),
  );
  return { verdicts, findings };
}

/** What `verify` has read so far, against what the set holds: `verify: 12 of 40 files, 1.1 GiB of 2.0 GiB (55%)`. */
export function progressText(set: ArtifactSet): string {
  const artifacts = [...set.files.keys()].filter(isArtifact).length;
  let total = 0;
  for (const file of set.files.values()) total += file.size;
  const bytes = Math.min(set.tally.bytes, total);
  const percent = total === 0 ? 100 : Math.floor((bytes / total) * 100);
  return `verify: ${Math.min(set.tally.files, artifacts)} of ${artifacts} files, ${sizeText(bytes)} of ${sizeText(total)} (${percent}%)`;
}

/**
 * verifyArtifacts with a command's key servers and public repository, on one HTTP client closed
 * afterwards, with a progress line while it reads (a terminal's updating line, or a line every few
 * seconds elsewhere; nothing for a run that ends within a couple of seconds). Closes the set.
 */
export async function verifyWithContext(ctx: CommandContext, set: ArtifactSet): Promise<{ verdicts: ComponentVerdict[]; findings: Finding[] }> {
  const http = httpFor(ctx);
  const progress = startProgress(ctx.out, () => progressText(set));
  try {
    return await verifyArtifacts(set, {
      keyServers: keyServersFor(ctx, http),
      publicRepo: publicRepoFor(ctx, http),
      isPublished: (groupId, artifactId, version) => isReleasePublished(ctx, { groupId, artifactId, version }),
      log: (l) => ctx.out.verbose(l),
    });
  } finally {
    progress.stop();
    set.close();
    await http.close();
  }
}
