import { excludingRule } from '../core/key-format.js';
import type { Check } from './types.js';

/**
 * The signing key's format against the documented rules of the portal and the key server
 * (core/key-format.ts). No rule, no finding: a v6 key or an unusual algorithm is stated among
 * the facts (--verbose), not judged.
 */
export const signingKeyFormat: Check = {
  id: 'signing-key-format',
  codes: ['key-format-unsupported'],
  title: 'the signing key is in a format the key server documents it can read',
  appliesTo: (facts) => facts.signingKey !== undefined,
  run(facts) {
    const key = facts.signingKey!;
    const rule = excludingRule(key.format);
    if (rule === undefined) return [];
    return [
      {
        code: 'key-format-unsupported',
        severity: 'error',
        message: `The signing key ${key.fingerprint} (${key.from}) is a v${key.format.version} OpenPGP key (${key.format.algorithm}), which ${rule.service} cannot hold: ${rule.citation}. The portal could not find it there to verify the signatures.`,
        fix: 'Make a v4 signing key (gpg --quick-gen-key "Your Name <you@example.org>" ed25519 sign 2y, or rsa4096 instead of ed25519; not a GnuPG 2.5 Kyber or --rfc4880bis key, which are v5), sign the release with it, and publish it (relctl keys export, then the key server\'s upload form).',
      },
    ];
  },
};
