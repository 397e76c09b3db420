import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { basic, call, rawRequest, type Reply } from './sandbox-fixture.js';

/**
 * Hostile input to the sandbox's Nexus 2 staging API (DESIGN §8, issue 37 item 7): bodies parsed
 * once in linear time, invalid character references a 400 in the client's format, no control
 * characters in answers, profile ids of group-id syntax only, descriptions bounded.
 */
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox?.close();
});

const sb = basic('sandbox', 'sandbox');
const json = { accept: 'application/json', 'content-type': 'application/json' };
const xml = { accept: 'application/xml; charset=UTF-8', 'content-type': 'application/xml; charset=UTF-8' };
const api = (p: string): string => `${sandbox.urls.stagingApiUrl}/service/local/${p}`;
const post = (p: string, headers: Record<string, string>, body: string): Promise<Reply> => call(api(p), { method: 'POST', auth: sb, headers, body });
const startXml = (description: string): string => `<promoteRequest><data><description>${description}</description></data></promoteRequest>`;
// C0 controls but tab, newline and carriage return; DEL; C1 controls (U+009B is a terminal's CSI).
// eslint-disable-next-line no-control-regex
const controls = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

async function startedRepositories(): Promise<{ key: string; description: string | null }[]> {
  const state = (await call(`http://127.0.0.1:${sandbox.port}/sandbox/state`)).json() as { repositories: { key: string; description: string | null; profileId?: string }[] };
  return state.repositories.filter((r) => r.profileId !== undefined);
}

/** Milliseconds a bulk close with `body` takes to be answered, and the answer. */
async function timed(body: string): Promise<{ ms: number; reply: Reply }> {
  const started = performance.now();
  const reply = await post('staging/bulk/close', xml, body);
  return { ms: performance.now() - started, reply };
}

describe('request bodies are parsed in linear time', () => {
  test('1 MiB of unclosed <stagedRepositoryIds> answers a 400 at once, not after seconds; 4× the body takes about 4× the time', async () => {
    const hostile = (bytes: number): string => '<stagedRepositoryIds>'.repeat(Math.floor(bytes / 21));
    await timed(hostile(16 * 1024)); // warm-up: the first request pays for connection and compilation
    const quarter = await timed(hostile(256 * 1024));
    const whole = await timed(hostile(1024 * 1024 - 64));
    expect(whole.reply.status, whole.reply.text).toBe(400);
    expect(whole.reply.text).toContain('<nexus-error>');
    // Quadratic parsing took 6-10 s here (and ~16× the quarter's time); linear parsing takes milliseconds.
    expect(whole.ms).toBeLessThan(2000);
    expect(whole.ms).toBeLessThan(8 * quarter.ms + 250);
  });
});

describe('character references and control characters', () => {
  test('&#x110000; is a 400 in the client\'s format (a Nexus error document in XML), never a 500', async () => {
    const r = await post('staging/profiles/org.example.chars/start', xml, startXml('&#x110000;'));
    expect(r.status, r.text).toBe(400);
    expect(r.headers['content-type']).toMatch(/application\/xml/);
    expect(r.text).toMatch(/^<\?xml[^>]*>\n<nexus-error><errors><error><id>\*<\/id><msg>[^<]+<\/msg><\/error><\/errors><\/nexus-error>$/);
  });

  test('control characters are refused (400), by reference in XML and as escapes in JSON; nothing is started', async () => {
    const before = (await startedRepositories()).length;
    const x = await post('staging/profiles/org.example.chars/start', xml, startXml('&#1;&#27;[31m red'));
    expect(x.status, x.text).toBe(400);
    expect(x.text).not.toMatch(controls);
    const j = await post('staging/profiles/org.example.chars/start', json, JSON.stringify({ data: { description: '\u001b[31m red \u009b' } }));
    expect(j.status, j.text).toBe(400);
    expect(j.json().errors[0].msg).toMatch(/control character/);
    expect((await startedRepositories()).length).toBe(before);
    // Tabs and newlines are text, not controls.
    expect((await post('staging/profiles/org.example.chars/start', json, JSON.stringify({ data: { description: 'line 1\n\tline 2' } }))).status).toBe(201);
  });

  test('an id with control characters echoed in an answer comes out without them', async () => {
    for (const headers of [xml, json]) {
      const r = await call(api('staging/repository/%1B%5B31m%C2%9Bx'), { auth: sb, headers });
      expect(r.status).toBe(404);
      expect(r.text).not.toMatch(controls);
    }
  });

  test('a User-Agent with C1 controls (bytes 0x80-0x9F pass HTTP parsing) is stored and answered without them', async () => {
    const body = '{"data":{"description":"ua"}}';
    const head =
      `POST /staging/service/local/staging/profiles/org.example.ua/start HTTP/1.1\r\nAuthorization: ${sb}\r\nUser-Agent: x\u009b[31my\r\n` +
      `Accept: application/json\r\nContent-Type: application/json\r\nContent-Length: ${body.length}`;
    const answer = await rawRequest(sandbox.port, head, body);
    const id = /"stagedRepositoryId":"([^"]+)"/.exec(answer)?.[1];
    expect(id, answer).toBeDefined();
    const repo = await call(api(`staging/repository/${id}`), { auth: sb, headers: json });
    expect(repo.json().userAgent).toMatch(/^x.*\[31my$/);
    expect(repo.text).not.toMatch(controls);
  });
});

describe('profile ids and field sizes', () => {
  test.each(['..%2F..%2Fetc', 'a%2Fb', '%1B', '%00', 'a%20b', 'a..b'])('profile id %s is no profile: 404, nothing started', async (id) => {
    const before = (await startedRepositories()).length;
    const r = await post(`staging/profiles/${id}/start`, json, '{"data":{"description":"x"}}');
    expect(r.status, r.text).toBe(404);
    expect(r.text).not.toMatch(controls);
    expect((await startedRepositories()).length).toBe(before);
  });

  test('profile_evaluate names no profile for a group id of another syntax', async () => {
    const r = await call(api('staging/profile_evaluate?g=..%2F..%2Fetc'), { auth: sb, headers: json });
    expect(r.json().data).toEqual([]);
  });

  test('a description over 4 KiB is a 400 naming the limit, and the state stays small', async () => {
    const big = 'd'.repeat(1_000_000);
    for (let i = 0; i < 3; i++) {
      const r = await post('staging/profiles/org.example.big/start', json, JSON.stringify({ data: { description: big } }));
      expect(r.status).toBe(400);
      expect(r.json().errors[0].msg).toBe('The description is longer than 4096 characters');
    }
    expect((await post('staging/profiles/org.example.big/start', json, JSON.stringify({ data: { description: 'd'.repeat(4096) } }))).status).toBe(201);
    expect((await call(`http://127.0.0.1:${sandbox.port}/sandbox/state`)).text.length).toBeLessThan(100_000);
  });
});
