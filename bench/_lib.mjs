// Shared by the bench scripts (run.mjs skips files starting with an underscore).
import { spawn } from 'node:child_process';
import http from 'node:http';

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * Maven settings that resolve everything from Debian's packaged plugins (file:// mirror, see
 * shared/reference/maven-offline.md) and hold one <server> for the distribution id `central`.
 */
export function debianMirrorSettings(username, password) {
  return `<settings>
  <mirrors><mirror><id>debian</id><mirrorOf>*</mirrorOf><url>file:///usr/share/maven-repo</url></mirror></mirrors>
  <profiles><profile><id>debian-repo</id>
    <repositories><repository><id>central</id><url>file:///usr/share/maven-repo</url>
      <releases><checksumPolicy>ignore</checksumPolicy></releases><snapshots><enabled>false</enabled></snapshots>
    </repository></repositories>
    <pluginRepositories><pluginRepository><id>central</id><url>file:///usr/share/maven-repo</url>
      <releases><checksumPolicy>ignore</checksumPolicy></releases><snapshots><enabled>false</enabled></snapshots>
    </pluginRepository></pluginRepositories>
  </profile></profiles>
  <activeProfiles><activeProfile>debian-repo</activeProfile></activeProfiles>
  <servers><server><id>central</id><username>${username}</username><password>${password}</password></server></servers>
</settings>
`;
}

/** The baseline: answers every PUT 201 after reading it, every GET 404 (Maven's metadata probe). */
export async function startDiscard() {
  const handle = (req, res) => {
    req.on('data', () => undefined);
    req.on('end', () => {
      res.writeHead(req.method === 'PUT' ? 201 : 404, { 'content-length': '0' });
      res.end();
    });
  };
  const server = http.createServer();
  server.on('request', handle);
  server.on('checkContinue', (req, res) => {
    res.writeContinue();
    handle(req, res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/service/local/staging/deploy/maven2/`,
    close: () => new Promise((resolve) => { server.close(resolve); server.closeAllConnections(); }),
  };
}

/** Runs a command, its output kept for the error; resolves to its wall seconds, rejects on a non-zero exit. */
export function timedRun(command, args, options) {
  const started = process.hrtime.bigint();
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(Number(process.hrtime.bigint() - started) / 1e9);
      else reject(new Error(`${command} ${args.join(' ')} failed (exit ${code}):\n${output.slice(-4000)}`));
    });
  });
}
