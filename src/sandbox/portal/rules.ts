import type { ComponentVerdict, DeploymentFiles, SignatureVerdict, ValidationEnvironment } from '../../core/validation/types.js';

export type Verifier = (file: string, data: Uint8Array | AsyncIterable<Uint8Array>, signature: Uint8Array) => Promise<SignatureVerdict>;

/** The shared rule set as the sandbox uses it (injected so the service can be driven in tests). */
export interface SandboxRules {
  validateDeployment(files: DeploymentFiles, env: ValidationEnvironment): Promise<ComponentVerdict[]>;
  formatFailure(verdicts: readonly ComponentVerdict[]): string;
  /**
   * A fresh verifier per validation: its key cache lives for one validation only, so a key
   * found only on the secondary server is met anew (and refused) by the next one.
   */
  createVerifier(): Verifier;
}

export interface KeyLookup {
  keyForValidation(issuer: { fingerprint?: string; keyId: string }): string | undefined;
}

/** The real rule set and signature verifier (openpgp is loaded on the first validation only). */
export async function loadRules(keys: KeyLookup): Promise<SandboxRules> {
  const [validation, verifier] = await Promise.all([
    import('../../core/validation/index.js'),
    import('../../keys/signature-verifier.js'),
  ]);
  return {
    validateDeployment: (files, env) => validation.validateDeployment(files, env),
    formatFailure: (verdicts) => validation.formatFailure(verdicts),
    createVerifier: () => verifier.createSignatureVerifier(async (issuer) => keys.keyForValidation(issuer)),
  };
}
