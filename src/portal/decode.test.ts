import { describe, expect, it } from 'vitest';
import { decodeFailure, errorText, maxPortalWords, parseValidationFailure } from './decode.js';

const ctx = { action: 'manual upload', portalUrl: 'https://central.example', groupId: 'org.example' };

describe('decodeFailure', () => {
  it('maps "No repository found" to the same-machine explanation with the search and by-key upload', () => {
    const d = decodeFailure(400, '{"error":"Failed to process request: No repository found for u/10.0.0.1/org.example--default-repository"}', ctx);
    expect(d).toMatchObject({ exit: 'failed', kind: 'no-repository', repositoryKey: 'u/10.0.0.1/org.example--default-repository' });
    expect(d.fix).toContain('relctl search --group-id org.example --ip any');
    expect(d.fix).toContain('relctl upload --repository-key');
  });

  it("puts the portal's own words first, verbatim on their own line, then relctl's reading", () => {
    const d = decodeFailure(400, '{"error":"Failed to process request: No repository found for u/10.0.0.1/org.example--default-repository"}', ctx);
    const [said, ...reading] = d.message.split('\n');
    expect(said).toBe('portal said: No repository found for u/10.0.0.1/org.example--default-repository');
    expect(reading.join('\n')).toContain('No staging repository');
    expect(decodeFailure(503, 'busy, try later', ctx).message.split('\n')[0]).toBe('portal said: busy, try later');
    expect(decodeFailure(401, '', ctx).message).not.toContain('portal said');
  });

  it("cuts the portal's words at a sane length, on one line, with no control characters", () => {
    const long = decodeFailure(400, `{"error":"${'x'.repeat(5000)}"}`, ctx).message.split('\n')[0]!;
    expect(long).toBe(`portal said: ${'x'.repeat(maxPortalWords)}…`);
    const hostile = decodeFailure(400, 'evil\u001b[2Jtext\nsecond line\nthird', ctx).message.split('\n')[0]!;
    expect(hostile).toBe('portal said: evil [2Jtext (and 2 more lines)');
  });

  it('maps the plain-text prototype form too (no JSON, with the prefix)', () => {
    const d = decodeFailure(400, 'Failed to process request: No objects found in the repository', ctx);
    expect(d.kind).toBe('no-objects');
  });

  it('maps the closed/failed text to namespace-blocked with the drop command and the deployments page', () => {
    const d = decodeFailure(
      400,
      '{"error":"Failed to process request: Repository u/1.2.3.4/org.example--default-repository is in state closed/failed: deployment 1111-22 failed validation and must be dropped before a new release can be made"}',
      ctx,
    );
    expect(d).toMatchObject({ kind: 'namespace-blocked', deploymentId: '1111-22', repositoryKey: 'u/1.2.3.4/org.example--default-repository' });
    expect(d.fix).toContain('relctl drop --deployment 1111-22');
    expect(d.fix).toContain('https://central.example/publishing/deployments');
    expect(d.fix).toContain('next version');
  });

  it('turns a validation failure into one portal-validation finding per line, module = purl, fix from the rule', () => {
    const text =
      'Deployment reached an unexpected status: Failed\n- pkg:maven/org.example/demo@1.0.0\n  - Developers information is missing\n  - Sources must be provided but not found in entries\n- pkg:maven/org.example/web@1.0.0\n  - Missing signature for file: web-1.0.0.war';
    for (const body of [JSON.stringify({ error: text, deploymentId: 'dep-1' }), JSON.stringify({ error: `Failed to process request: ${text}`, deploymentId: 'dep-1' })]) {
      const d = decodeFailure(400, body, ctx);
      expect(d.kind).toBe('portal-validation');
      expect(d.deploymentId).toBe('dep-1');
      expect(d.findings?.map((f) => [f.module, f.message])).toEqual([
        ['pkg:maven/org.example/demo@1.0.0', 'Developers information is missing'],
        ['pkg:maven/org.example/demo@1.0.0', 'Sources must be provided but not found in entries'],
        ['pkg:maven/org.example/web@1.0.0', 'Missing signature for file: web-1.0.0.war'],
      ]);
      expect(d.findings?.[0]?.fix).toContain('<developers>');
      expect(d.findings?.[1]?.fix).toContain('-sources.jar');
      expect(d.findings?.every((f) => f.code === 'portal-validation' && f.fix.includes('/publishing/deployments'))).toBe(true);
    }
  });

  it('tells an expired token from a wrong one only where the 401 says so (issue 42 item 6)', () => {
    // The portal's prototype answers every refusal with an empty 401: nothing to tell apart.
    expect(decodeFailure(401, '', ctx).kind).toBe('token-rejected');
    expect(decodeFailure(401, '', ctx).fix).toContain('/usertoken');
    expect(decodeFailure(401, '', { ...ctx, challenge: 'Bearer error="invalid_token", error_description="The user token has expired"' })).toMatchObject({ exit: 'environment', kind: 'token-expired' });
    expect(decodeFailure(401, '{"error":"Token expired"}', ctx).kind).toBe('token-expired');
    expect(decodeFailure(401, '', { ...ctx, challenge: 'Basic realm="staging"' }).kind).toBe('token-rejected');
  });

  it('maps 401 to token-rejected (exit 3), 402 to the legacy host (exit 2), 5xx to exit 3, namespaces, unknown 400s', () => {
    expect(decodeFailure(401, '', ctx)).toMatchObject({ exit: 'environment', kind: 'token-rejected' });
    expect(decodeFailure(401, '', ctx).fix).toContain('user token');
    expect(decodeFailure(402, '', ctx)).toMatchObject({ exit: 'usage', kind: 'legacy-staging-host' });
    expect(decodeFailure(503, 'busy', ctx)).toMatchObject({ exit: 'environment', kind: 'portal-unavailable' });
    expect(decodeFailure(400, '{"error":"Failed to process request: File is not associated with an authorized namespace"}', ctx).kind).toBe(
      'namespace-not-authorized',
    );
    expect(decodeFailure(400, `{"error":"Failed to process request: Namespace 'org.other' is not allowed"}`, ctx).kind).toBe('namespace-not-authorized');
    expect(decodeFailure(400, '{"error":"Something new","extra":1}', ctx)).toMatchObject({ kind: 'portal-rejected', message: expect.stringContaining('Something new') as unknown as string });
  });
});

describe('answers with no possible fix by retrying', () => {
  it('a refused drop of a PUBLISHED deployment says it cannot be dropped and what to do instead; 429 after retries is exit 3', () => {
    const d = decodeFailure(400, '{"error":"Deployment 6c1f is PUBLISHED and cannot be dropped"}', ctx);
    expect(d).toMatchObject({ exit: 'failed', kind: 'not-droppable' });
    expect(d.fix).toContain('release a new version');
    expect(d.fix).not.toContain('run the command again');
    expect(decodeFailure(429, '', ctx)).toMatchObject({ exit: 'environment', kind: 'portal-unavailable' });
    expect(decodeFailure(418, '', ctx).fix).not.toContain('text above');
  });
});

describe('errorText and parseValidationFailure', () => {
  it('tolerates unknown fields and non-JSON bodies', () => {
    expect(errorText('{"error":"x","future":{"a":1}}')).toEqual({ text: 'x' });
    expect(errorText('<html>oops</html>').text).toBe('<html>oops</html>');
  });
  it('keeps a line that has no component heading under "common"', () => {
    expect(parseValidationFailure("Deployment reached an unexpected status: Failed\n- Component with package url: 'pkg:maven/g/a@1' already exists")).toEqual([
      { purl: 'common', lines: ["Component with package url: 'pkg:maven/g/a@1' already exists"] },
    ]);
  });
});

describe('the capped answer (publishing limits)', () => {
  it("reads the portal's limit text as the organization's month being used up, with where to look and what to do", () => {
    const body = `{"error":"Failed to process request: Publishing limit reached for namespace 'org.example' in 2026-12 (its organization's namespaces together): 3 of 3 releases used, this deployment needs 1 more. Usage resets at the start of next month."}`;
    const d = decodeFailure(400, body, ctx);
    expect(d).toMatchObject({ exit: 'failed', kind: 'publishing-limit-reached' });
    expect(d.message.split('\n')[0]).toContain("portal said: Publishing limit reached for namespace 'org.example'");
    expect(d.message).toContain("organization's publishing limits for this calendar month are used up");
    expect(d.fix).toContain('https://central.example/publishing/usage');
  });
});
