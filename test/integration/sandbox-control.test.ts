import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { createTestKey, type TestKey } from '../helpers/gpg.js';
import { component, signerOf, status } from './sandbox-hardening-fixture.js';
import { call, controlCall, manualUpload, publishKeyConfirmed, putAll } from './sandbox-fixture.js';

/** Control calls need the token; no page of another origin can change anything (DESIGN §8). */
let key: TestKey;
let sandbox: RunningSandbox;
let origin: string;

beforeAll(async () => {
  key = await createTestKey();
  sandbox = await startSandbox({ controlToken: 'a-fixed-control-token-for-tests' });
  origin = `http://127.0.0.1:${sandbox.port}`;
  await publishKeyConfirmed(sandbox, key);
});
afterAll(async () => {
  await sandbox?.close();
  await key?.cleanup();
});

async function validatedDeployment(namespace: string): Promise<string> {
  expect(await putAll(sandbox, await component(await signerOf(key), namespace, 'lib', '1.0.0'))).toEqual([]);
  const reply = await manualUpload(sandbox, namespace);
  expect(reply.status, reply.text).toBe(200);
  return reply.json().deploymentId as string;
}

const count = async (): Promise<number> => {
  const state = (await call(`${origin}/sandbox/state`)).json() as { repositories: unknown[]; deployments: unknown[] };
  return state.repositories.length + state.deployments.length;
};

describe('the control token', () => {
  test('state-changing control calls answer 401 without the token and 403 with a wrong one; reads stay open', async () => {
    expect(sandbox.controlToken).toBe('a-fixed-control-token-for-tests');
    await validatedDeployment('org.ctl');
    for (const [method, what] of [['POST', 'reset'], ['POST', 'faults'], ['DELETE', 'faults']] as const) {
      expect((await call(`${origin}/sandbox/${what}`, { method, body: '{"prefix":"/repo","status":500}' })).status, `${method} ${what}`).toBe(401);
      const wrong = await call(`${origin}/sandbox/${what}`, { method, headers: { 'x-sandbox-token': 'a-fixed-control-token-for-test5' } });
      expect(wrong.status, `${method} ${what}`).toBe(403);
    }
    expect(await count()).toBe(2);
    expect((await call(`${origin}/sandbox/state`)).status).toBe(200);
    expect((await call(`${origin}/sandbox/mail`)).status).toBe(200);
    expect((await call(`${origin}/sandbox/faults`)).json()).toEqual([]);
    expect((await controlCall(sandbox, 'POST', 'reset')).status).toBe(204);
    expect(await count()).toBe(0);
    await publishKeyConfirmed(sandbox, key);
  });

  test('the token is checked before the body is read: a refused call never gets 100 Continue', async () => {
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(sandbox.port, '127.0.0.1', () =>
        socket.write(`POST /sandbox/faults HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000\r\nExpect: 100-continue\r\n\r\n`),
      );
      let data = '';
      socket.on('data', (d) => (data += d.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
      // A server waiting for the body never answers: give up and show what came.
      socket.setTimeout(3000, () => {
        socket.destroy();
        resolve(data);
      });
    });
    expect(reply).toMatch(/^HTTP\/1\.1 401 /);
    expect(reply).not.toContain('100 Continue');
  });

  test('no answer carries a permissive CORS header', async () => {
    const fpr = key.fingerprint;
    for (const [url, method] of [
      [`${sandbox.urls.keyserverUrl}/vks/v1/by-fingerprint/${fpr}`, 'GET'],
      [`${origin}/sandbox/state`, 'GET'],
      [`${origin}/sandbox/reset`, 'OPTIONS'],
      [`${sandbox.urls.portalUrl}/api/v1/publisher/status`, 'OPTIONS'],
    ] as const) {
      const r = await call(url, { method, headers: { origin: 'http://127.0.0.1:9', 'access-control-request-method': 'POST' } });
      expect(r.headers['access-control-allow-origin'], url).toBeUndefined();
      expect(r.headers['access-control-allow-credentials'], url).toBeUndefined();
    }
  });
});

describe('a page of another origin', () => {
  let browser: Browser;
  let evil: http.Server;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (evil === undefined ? resolve(undefined) : evil.close(resolve)));
  });

  test('cannot reset the sandbox, change faults or publish with the credentials the browser holds', async () => {
    const id = await validatedDeployment('org.victim');
    // What a hostile page can do without reading answers: no-cors posts carrying cookies and
    // cached HTTP credentials, and a plain form post.
    const script = `
      const s = ${JSON.stringify(origin)};
      const go = (path, method) => fetch(s + path, { method, mode: 'no-cors', credentials: 'include', body: method === 'DELETE' ? undefined : '{}' }).catch(() => undefined);
      (async () => {
        await go('/sandbox/reset', 'POST');
        await go('/sandbox/faults', 'POST');
        await go('/portal/api/v1/publisher/deployment/${id}', 'POST');
        await go('/staging/manual/drop/repository/sandbox%2F127.0.0.1%2Forg.victim--default-repository', 'DELETE');
        document.title = 'done';
      })();`;
    evil = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><title>cute cats</title><script>${script}</script>`);
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    const evilUrl = `http://127.0.0.1:${(evil.address() as AddressInfo).port}/`;

    const context = await browser.newContext({ httpCredentials: { username: 'sandbox', password: 'sandbox' } });
    const page = await context.newPage();
    // The person has the portal page open in the same browser, so credentials are cached.
    await page.goto(`${sandbox.urls.portalUrl}/publishing/deployments`);
    await page.goto(evilUrl);
    await page.waitForFunction('document.title === "done"', undefined, { timeout: 15_000 });
    await context.close();

    expect(await count()).toBe(2);
    expect((await status(sandbox, id)).deploymentState).toBe('VALIDATED');
    expect((await call(`${origin}/sandbox/faults`)).json()).toEqual([]);
    const forged = await call(`${origin}/portal/api/v1/publisher/deployment/${id}`, { method: 'POST', headers: { origin: evilUrl.slice(0, -1) } });
    expect(forged.status).toBe(403);
  });
});
