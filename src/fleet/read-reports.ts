/**
 * `fleet report --from DIR` (DESIGN §13): every `*.json` under DIR, at any depth, as
 * `actions/download-artifact` lays a matrix's artifacts out (`DIR/ARTIFACT/FILE.json`), each a
 * `relctl fleet audit --json` document. One that is not JSON or not such a document is a usage
 * error naming the file: a dashboard built from a document relctl did not write would say
 * something no audit said.
 */
import { lstat, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../core/errors.js';
import { parseFleetReport } from './report-shape.js';
import type { FleetReport } from './report-types.js';

/** Far above any audit document (a 20-repository fleet's is some tens of kilobytes). */
const maxBytes = 64 * 1024 * 1024;

const badDocument = (file: string, why: string): UsageError =>
  new UsageError(`--from: ${file} is not a relctl fleet audit --json document: ${why}.`, {
    kind: 'bad-fleet-report',
    fix: 'Give --from the folder of documents written by relctl fleet audit --only NAME --json --out NAME.json (one per repository), and nothing else ending in .json.',
  });

export interface ReadReport {
  /** Relative to DIR, '/'-separated. */
  file: string;
  report: FleetReport;
}

/** The documents in path order, so that the same folder always gives the same merge. */
export async function readFleetReports(dir: string): Promise<ReadReport[]> {
  const info = await stat(dir).catch(() => undefined);
  if (info?.isDirectory() !== true) {
    throw new UsageError(`--from ${dir}: ${info === undefined ? 'no such folder' : 'not a folder'}.`, { kind: 'bad-option', fix: 'Pass the folder the audit documents were downloaded into.' });
  }
  const entries = await readdir(dir, { recursive: true });
  const files = entries.map((e) => e.split(path.sep).join('/')).filter((e) => e.endsWith('.json')).sort();
  const out: ReadReport[] = [];
  for (const file of files) {
    const abs = path.join(dir, file);
    // Not followed: a link in an artifact could point at any file of the runner.
    const fileInfo = await lstat(abs);
    if (fileInfo.isSymbolicLink()) throw badDocument(file, 'it is a symbolic link');
    if (!fileInfo.isFile()) continue;
    if (fileInfo.size > maxBytes) throw badDocument(file, `it is ${fileInfo.size} bytes, more than any audit writes`);
    let value: unknown;
    try {
      value = JSON.parse(await readFile(abs, 'utf8'));
    } catch {
      // Not JSON.parse's message: it quotes the file's first characters, whatever they are.
      throw badDocument(file, 'it is not JSON');
    }
    const parsed = parseFleetReport(value);
    if ('problem' in parsed) throw badDocument(file, parsed.problem);
    out.push({ file, report: parsed.report });
  }
  if (out.length === 0) {
    throw new UsageError(`--from ${dir} holds no .json document.`, {
      kind: 'bad-fleet-report',
      fix: 'Check that the audit jobs uploaded their documents (relctl fleet audit --only NAME --json --out NAME.json) and that they were downloaded into this folder.',
    });
  }
  return out;
}
