// Benchmark: the Publisher API bundle upload of a 1 GiB bundle (stored zip, one big signed jar) to
// a `relctl sandbox` process: relctl's upload step (`relctl run upload`, the bundle route) against
// `curl -F bundle=@…` sending the same bundle to the same endpoint, side by side; and the peak
// resident memory of relctl and of the sandbox, which streams the bundle to disk and validates it
// there (target: both under 200 MB; issue 20). Setup is not timed. Needs a build, gpg, jar, curl.
// Usage: node bench/upload-large.mjs [GiB]   (default 1)
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measuredRun, runAlone, sandboxCliEnv, timedRun, vmHighWaterKiB, withSandboxAndKey } from './_lib.mjs';
import { bigComponent } from './verify-large.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const gib = 1024 * 1024 * 1024;

export default async function bench(size = Number(process.argv[2] ?? process.env.BENCH_UPLOAD_GIB ?? 1)) {
  return withSandboxAndKey(root, (work) => ['--data-dir', path.join(work, 'sandbox')], async ({ work, keys, sandbox }) => {
    const stage = path.join(work, 'staging');
    await bigComponent(stage, Math.round(size * gib), keys.gpg);
    const project = path.join(work, 'project');
    const bundle = path.join(project, 'central-bundle.zip');
    await mkdir(path.join(project, '.relctl'), { recursive: true });
    await timedRun('jar', ['--create', '--no-manifest', '--no-compress', '--file', bundle, '-C', stage, 'org']);
    // The build step's record, as release:perform leaves it on the portal-plugin route.
    const build = { publishingRoute: 'portal-plugin', bundle, groupId: 'org.example.bench', artifactId: 'big', version: '1.0.0' };
    await writeFile(path.join(project, '.relctl', 'journal.json'), JSON.stringify({ version: 1, steps: [{ id: 'build', status: 'done', at: new Date().toISOString(), data: build }], uploads: [] }));

    const ours = await measuredRun('node', [path.join(root, 'bin/relctl.js'), 'run', 'upload', '--yes', '--json', '--cwd', project], { env: sandboxCliEnv(sandbox.urls) });
    if (!JSON.parse(ours.stdout).ok) throw new Error(`the upload failed: ${ours.stdout.slice(0, 500)}`);
    const url = `${sandbox.urls.portalUrl}/api/v1/publisher/upload?publishingType=USER_MANAGED`;
    const auth = `Authorization: Bearer ${Buffer.from('sandbox:sandbox').toString('base64')}`;
    const curl = await measuredRun('curl', ['--silent', '--fail', '--show-error', '-H', auth, '-F', `bundle=@${bundle}`, url]);
    const sandboxPeak = Math.round((vmHighWaterKiB(sandbox.pid) ?? 0) / 1024);
    return {
      name: `bundle upload of ${size} GiB to the sandbox vs curl -F`,
      ratio: ours.seconds / curl.seconds,
      detail: `relctl ${ours.seconds.toFixed(2)} s, peak ${ours.peakMiB} MiB; sandbox peak ${sandboxPeak} MiB (targets < 200 MiB) vs curl ${curl.seconds.toFixed(2)} s (both include the sandbox's validation)`,
    };
  });
}

await runAlone(import.meta.url, bench);
