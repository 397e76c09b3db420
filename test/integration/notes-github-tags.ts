import { request } from 'undici';

/**
 * Puts a tag on the sandbox's GitHub stand-in through its own REST API (`POST git/refs`), as
 * `git push origin TAG` would: `notes --publish` makes a release page only for a tag GitHub has.
 * The tag points at the repository's default branch head; the notes never read the commit.
 */
export async function pushTagToSandbox(githubApiUrl: string, repo: string, tag: string, token = 'alice'): Promise<void> {
  const headers = { authorization: `token ${token}`, 'content-type': 'application/json' };
  const head = await request(`${githubApiUrl}/repos/${repo}/git/ref/heads/main`, { headers });
  const { object } = (await head.body.json()) as { object: { sha: string } };
  const made = await request(`${githubApiUrl}/repos/${repo}/git/refs`, { method: 'POST', headers, body: JSON.stringify({ ref: `refs/tags/${tag}`, sha: object.sha }) });
  const text = await made.body.text();
  if (made.statusCode !== 201 && !text.includes('Reference already exists')) throw new Error(`tag ${tag} on ${repo}: HTTP ${made.statusCode} ${text}`);
}
