import { JsonState } from '../shared/json-state.js';

/**
 * The Jira stand-in's issues (jira.json in the data folder). Status names map to Jira's status
 * categories (new / indeterminate / done) as a default workflow does.
 */
export interface JiraIssueRecord {
  id: string;
  key: string;
  summary: string;
  status: string;
  resolution: string | null;
  created: string;
  updated: string;
  /** Visible to signed-in callers only, as a private project's issues are (the stand-in's extension). */
  restricted?: boolean;
}

export interface JiraStateData {
  version: 1;
  nextId: number;
  counters: Record<string, number>;
  issues: JiraIssueRecord[];
}

function emptyJiraState(): JiraStateData {
  return { version: 1, nextId: 10000, counters: {}, issues: [] };
}

export function statusCategory(status: string): { id: number; key: string; name: string; colorName: string } {
  const s = status.toLowerCase();
  if (['done', 'closed', 'resolved'].includes(s)) return { id: 3, key: 'done', name: 'Done', colorName: 'green' };
  if (['open', 'to do', 'todo', 'backlog', 'new', 'reopened'].includes(s)) return { id: 2, key: 'new', name: 'To Do', colorName: 'blue-gray' };
  return { id: 4, key: 'indeterminate', name: 'In Progress', colorName: 'yellow' };
}

export class JiraService {
  private constructor(
    private data: JiraStateData,
    private readonly file: JsonState<JiraStateData>,
  ) {}

  static async open(dataDir: string): Promise<JiraService> {
    const file = new JsonState<JiraStateData>(dataDir, 'jira.json');
    const data = await file.load(emptyJiraState);
    return new JiraService(Array.isArray(data.issues) ? data : emptyJiraState(), file);
  }

  get(key: string): JiraIssueRecord | undefined {
    return this.data.issues.find((i) => i.key === key.toUpperCase());
  }

  /** A new issue: the project's next number, or the number of `key` when the caller names one. */
  create(project: string, fields: { summary: string; status?: string; resolution?: string | null; number?: number; restricted?: boolean }): JiraIssueRecord {
    const n = fields.number ?? (this.data.counters[project] ?? 0) + 1;
    this.data.counters[project] = Math.max(n, this.data.counters[project] ?? 0);
    const now = new Date().toISOString().replace('Z', '+0000');
    const issue: JiraIssueRecord = {
      id: String(this.data.nextId++),
      key: `${project}-${n}`,
      summary: fields.summary,
      status: fields.status ?? 'Open',
      resolution: fields.resolution ?? null,
      created: now,
      updated: now,
      ...(fields.restricted === true ? { restricted: true } : {}),
    };
    this.data.issues.push(issue);
    return issue;
  }

  save(): Promise<void> {
    return this.file.save(this.data);
  }

  async reset(): Promise<void> {
    this.data = emptyJiraState();
    await this.save();
  }
}
