import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { failureHeadline, formatFailure, parseFailureText } from './format.js';
import { ruleCodeOfText, ruleText } from './texts.js';
import type { ComponentVerdict, RuleCode, RuleViolation } from './types.js';

// File names as they appear in deployments, including awkward ones (spaces, dashes, dots, quotes).
const nameArb = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._ '-]{0,30}$/);
const algorithmArb = fc.constantFrom('md5', 'sha1', 'sha256', 'sha512');

/** Every text the rule set can produce, paired with its code. */
const violationArb: fc.Arbitrary<RuleViolation> = fc.oneof(
  nameArb.map((n) => ({ code: 'missing-signature' as RuleCode, message: ruleText.missingSignature(n) })),
  nameArb.map((n) => ({ code: 'invalid-signature' as RuleCode, message: ruleText.invalidSignature(n) })),
  nameArb.map((n) => ({ code: 'key-not-on-primary' as RuleCode, message: ruleText.keyNotFound(n) })),
  fc.tuple(algorithmArb, nameArb).map(([a, n]) => ({ code: 'missing-checksum' as RuleCode, message: ruleText.missingChecksum(a, n) })),
  fc.tuple(algorithmArb, nameArb).map(([a, n]) => ({ code: 'bad-checksum' as RuleCode, message: ruleText.badChecksum(a, n) })),
  fc.constant({ code: 'missing-sources' as RuleCode, message: ruleText.missingSources() }),
  fc.constant({ code: 'missing-javadoc' as RuleCode, message: ruleText.missingJavadoc() }),
  fc.tuple(nameArb, nameArb).map(([p, n]) => ({ code: 'packaging-mismatch' as RuleCode, message: ruleText.packagingMismatch(p, n) })),
  fc.tuple(nameArb, nameArb).map(([d, n]) => ({ code: 'packaging-mismatch' as RuleCode, message: ruleText.invalidPath(d, n) })),
  fc.constant({ code: 'missing-developers' as RuleCode, message: ruleText.missingDevelopers() }),
  fc
    .constantFrom(ruleText.missingLicense(), ruleText.missingUrl(), ruleText.missingDescription(), ruleText.missingScmUrl(), ruleText.missingName())
    .map((message) => ({ code: 'missing-pom-metadata' as RuleCode, message })),
  nameArb.map((n) => ({ code: 'missing-pom-metadata' as RuleCode, message: ruleText.missingPom(n) })),
  fc.tuple(nameArb, nameArb).map(([n, r]) => ({ code: 'missing-pom-metadata' as RuleCode, message: ruleText.unreadablePom(n, r) })),
  fc.constant({ code: 'snapshot-version' as RuleCode, message: ruleText.snapshot() }),
  nameArb.map((n) => ({ code: 'already-published' as RuleCode, message: ruleText.alreadyPublished(`pkg:maven/org.example/${n}@1.0`) })),
);

const verdictArb: fc.Arbitrary<ComponentVerdict> = fc
  .tuple(fc.stringMatching(/^[a-z][a-z0-9.]{0,12}$/), fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/), fc.array(violationArb, { maxLength: 6 }))
  .map(([g, a, violations]) => ({ groupId: g, artifactId: a, version: '1.0.0', packaging: 'jar', purl: `pkg:maven/${g}/${a}@1.0.0`, files: [], violations }));

describe('ruleCodeOfText', () => {
  it('maps every message formatFailure can produce back to its code, through the formatted text', () => {
    fc.assert(
      fc.property(fc.array(verdictArb, { maxLength: 5 }), fc.boolean(), (verdicts, prefixed) => {
        const text = (prefixed ? 'Failed to process request: ' : '') + formatFailure(verdicts);
        const parsed = parseFailureText(text);
        const failing = verdicts.filter((v) => v.violations.length > 0);
        expect(parsed.map((p) => p.purl)).toEqual(failing.map((v) => v.purl));
        parsed.forEach((component, i) => {
          expect(component.messages.map(ruleCodeOfText)).toEqual(failing[i]!.violations.map((v) => v.code));
        });
      }),
    );
  });

  it('decodes the real texts quoted from public deployments', () => {
    expect(ruleCodeOfText('Invalid signature for file: demo-1.0.jar.asc -- Could not find a public key by the key fingerprint.')).toBe('key-not-on-primary');
    expect(ruleCodeOfText("  - File path 'net/x/y' is not valid for file 'y-0.0.8-javadoc.jar'")).toBe('packaging-mismatch');
    expect(ruleCodeOfText('Dependency version information is missing for: a, b')).toBe('dependency-version-missing');
    expect(ruleCodeOfText('Dependency version information is missing for dependency: org.junit.jupiter:junit-jupiter')).toBe('dependency-version-missing');
    expect(ruleCodeOfText('Something the portal says that we do not know')).toBeUndefined();
  });

  it('formats only failing components under the portal headline', () => {
    const ok: ComponentVerdict = { groupId: 'g', artifactId: 'ok', version: '1', packaging: 'jar', purl: 'pkg:maven/g/ok@1', files: [], violations: [] };
    const bad: ComponentVerdict = { ...ok, artifactId: 'bad', purl: 'pkg:maven/g/bad@1', violations: [{ code: 'missing-developers', message: ruleText.missingDevelopers() }] };
    expect(formatFailure([ok, bad])).toBe(`${failureHeadline}\n- pkg:maven/g/bad@1\n  - Developers information is missing`);
  });
});
