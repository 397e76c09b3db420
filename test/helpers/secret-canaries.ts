import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A canary value in each of relctl's secret variables (DESIGN §2), distinct per test (`tag`), for
 * tests that prove no secret reaches a child, the output or a file. `secrets` holds the part that
 * must never show: the token itself, the password inside RELCTL_SMTP_URL.
 */
export function secretCanaries(tag: string, omit: readonly string[] = []): { env: Record<string, string>; secrets: Record<string, string> } {
  const secrets: Record<string, string> = {
    RELCTL_GITHUB_TOKEN: `ghp_Canary${tag}RelctlGithub000000001`,
    GITHUB_TOKEN: `ghp_Canary${tag}PlainGithub0000000001`,
    RELCTL_SMTP_URL: `Canary${tag}SmtpPass1`,
    RELCTL_REGISTRY_PASSWORD: `Canary${tag}RegistryPass1`,
    RELCTL_TOKEN_USERNAME: `Canary${tag}TokenUser1`,
    RELCTL_TOKEN_PASSWORD: `Canary${tag}TokenPass1`,
  };
  for (const name of omit) delete secrets[name];
  const env = Object.fromEntries(Object.entries(secrets).map(([name, value]) => [name, name === 'RELCTL_SMTP_URL' ? `smtp://mailer:${value}@127.0.0.1:1` : value]));
  return { env, secrets };
}

/** The text of every file under `root` except git's own objects (what a leak would be written into). */
export async function textsUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true, recursive: true });
  const files = entries.map((e) => path.join(e.parentPath, e.name)).filter((f, i) => entries[i]!.isFile() && !f.includes(`${path.sep}.git${path.sep}`));
  return Promise.all(files.map((f) => readFile(f, 'utf8')));
}
