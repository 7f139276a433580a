import { z } from 'zod';
import { defineTool } from '../define-tool';
import { addDays, catalogToday, firstNames, lastNames } from '../fake-data';
import { fields } from '../fields';
import { createRandom, type SeededRandom } from '../random';

const jira = ['issue-tracking', 'jira'] as const;
const linear = ['issue-tracking', 'linear'] as const;

const issueKey = () => z.string().min(1).max(40).describe('Jira issue key, e.g. "PAY-142"');
const projectKey = () => z.string().min(1).max(20).describe('Jira project key, e.g. "PAY"');
const person = (random: SeededRandom) => `${random.pick(firstNames)} ${random.pick(lastNames)}`;
const summaries = [
  'Refunds fail for cards issued in the EU',
  'Add CSV export to the reports page',
  'Checkout button unresponsive on iOS 17',
  'Rotate the webhook signing secret',
  'Slow query on the orders table',
];
const priority = z.enum(['Highest', 'High', 'Medium', 'Low', 'Lowest']);

export const issueTrackingTools = [
  defineTool({
    name: 'create_jira_issue',
    description: 'Create a Jira issue (bug, task or story) in a project.',
    tags: [...jira, 'issues'],
    input: z.object({
      project: projectKey(),
      summary: fields.text('One-line summary', 255),
      description: z.string().max(30000).optional().describe('Details of the issue'),
      issueType: z.enum(['Bug', 'Task', 'Story', 'Epic']).default('Task').describe('Issue type'),
      priority: priority.default('Medium').describe('Priority'),
      assignee: z.string().max(100).optional().describe('Assignee name or email'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'create_jira_issue');
      const key = `${input.project.toUpperCase()}-${random.int(100, 999)}`;
      return {
        key,
        url: `https://acme.atlassian.net/browse/${key}`,
        status: 'To Do',
        issueType: input.issueType,
        priority: input.priority,
      };
    },
  }),
  defineTool({
    name: 'get_jira_issue',
    description: 'Get a Jira issue by key: summary, status, assignee, priority and description.',
    tags: [...jira, 'issues'],
    input: z.object({ issueKey: issueKey() }),
    execute: (input) => {
      const random = createRandom(input, 'get_jira_issue');
      return {
        key: input.issueKey,
        summary: random.pick(summaries),
        status: random.pick(['To Do', 'In Progress', 'In Review', 'Done']),
        assignee: person(random),
        priority: random.pick(priority.options),
        storyPoints: random.pick([1, 2, 3, 5, 8]),
        created: addDays(catalogToday, -random.int(1, 90)),
      };
    },
  }),
  defineTool({
    name: 'search_jira_issues',
    description: 'Search Jira issues with a JQL query, e.g. project = PAY AND status = "In Progress".',
    tags: [...jira, 'issues', 'search'],
    input: z.object({ jql: fields.text('JQL query', 2000), limit: fields.limit(100, 25) }),
    execute: (input) => {
      const random = createRandom(input, 'search_jira_issues');
      return {
        total: random.int(0, 60),
        issues: Array.from({ length: Math.min(input.limit, random.int(1, 5)) }, () => ({
          key: `${random.pick(['PAY', 'WEB', 'OPS'])}-${random.int(10, 999)}`,
          summary: random.pick(summaries),
          status: random.pick(['To Do', 'In Progress', 'Done']),
        })),
      };
    },
  }),
  defineTool({
    name: 'update_jira_issue',
    description: 'Update fields of a Jira issue: summary, description, priority or labels.',
    tags: [...jira, 'issues'],
    input: z.object({
      issueKey: issueKey(),
      summary: z.string().max(255).optional().describe('New summary'),
      description: z.string().max(30000).optional().describe('New description'),
      priority: priority.optional().describe('New priority'),
      labels: z.array(z.string().min(1).max(50)).max(20).optional().describe('Replace the labels with these'),
    }),
    execute: (input) => ({
      key: input.issueKey,
      updated: Object.keys(input).filter((key) => key !== 'issueKey'),
    }),
  }),
  defineTool({
    name: 'transition_jira_issue',
    description: 'Move a Jira issue to another workflow status, such as In Progress or Done.',
    tags: [...jira, 'issues', 'workflow'],
    input: z.object({
      issueKey: issueKey(),
      status: z.enum(['To Do', 'In Progress', 'In Review', 'Done']).describe('Target status'),
    }),
    execute: (input) => ({ key: input.issueKey, status: input.status, transitioned: true }),
  }),
  defineTool({
    name: 'assign_jira_issue',
    description: 'Assign a Jira issue to a person, or unassign it.',
    tags: [...jira, 'issues'],
    input: z.object({
      issueKey: issueKey(),
      assignee: z.string().max(100).describe('Name or email of the assignee; empty to unassign'),
    }),
    execute: (input) => ({ key: input.issueKey, assignee: input.assignee || null }),
  }),
  defineTool({
    name: 'add_jira_comment',
    description: 'Add a comment to a Jira issue.',
    tags: [...jira, 'issues', 'comments'],
    input: z.object({ issueKey: issueKey(), body: fields.text('Comment text', 30000) }),
    execute: (input) => {
      const random = createRandom(input, 'add_jira_comment');
      return { id: String(random.int(10_000, 99_999)), key: input.issueKey, created: catalogToday };
    },
  }),
  defineTool({
    name: 'list_jira_sprints',
    description: 'List the active and upcoming sprints of a Jira board with their dates and goals.',
    tags: [...jira, 'sprints'],
    input: z.object({
      board: z.string().min(1).max(100).describe('Board name or id'),
      state: z.enum(['active', 'future', 'closed']).default('active').describe('Sprint state'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'list_jira_sprints');
      const start = addDays(catalogToday, input.state === 'future' ? 7 : input.state === 'closed' ? -21 : -4);
      return {
        sprints: [
          {
            id: random.int(100, 999),
            name: `${input.board} Sprint ${random.int(20, 60)}`,
            state: input.state,
            startDate: start,
            endDate: addDays(start, 14),
            goal: random.pick(['Ship refund retries', 'Stabilise checkout', 'Reports v2']),
          },
        ],
      };
    },
  }),
  defineTool({
    name: 'list_jira_projects',
    description: 'List the Jira projects you can see, with their keys and leads.',
    tags: [...jira, 'projects'],
    input: z.object({ limit: fields.limit(100, 50) }),
    execute: (input) => {
      const random = createRandom(input, 'list_jira_projects');
      return {
        projects: [
          ['PAY', 'Payments'],
          ['WEB', 'Web App'],
          ['OPS', 'Operations'],
          ['MOB', 'Mobile'],
        ]
          .slice(0, input.limit)
          .map(([key, name]) => ({ key, name, lead: person(random) })),
      };
    },
  }),
  defineTool({
    name: 'create_linear_issue',
    description:
      'Create an issue in a Linear team, with a title, description, priority and optional project.',
    tags: [...linear, 'issues'],
    input: z.object({
      team: z.string().min(1).max(50).describe('Team key or name, e.g. "ENG"'),
      title: fields.text('Issue title', 255),
      description: z.string().max(30000).optional().describe('Issue description (Markdown)'),
      priority: z
        .number()
        .int()
        .min(0)
        .max(4)
        .default(0)
        .describe('0 none, 1 urgent, 2 high, 3 medium, 4 low'),
      project: z.string().max(100).optional().describe('Project name'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'create_linear_issue');
      const identifier = `${input.team.toUpperCase().slice(0, 5)}-${random.int(100, 2000)}`;
      return {
        identifier,
        url: `https://linear.app/acme/issue/${identifier}`,
        state: 'Backlog',
        priority: input.priority,
      };
    },
  }),
  defineTool({
    name: 'list_linear_issues',
    description: 'List Linear issues of a team, filtered by state or assignee.',
    tags: [...linear, 'issues'],
    input: z.object({
      team: z.string().min(1).max(50).describe('Team key or name'),
      state: z
        .enum(['Backlog', 'Todo', 'In Progress', 'Done', 'Canceled'])
        .optional()
        .describe('Only issues in this state'),
      assignee: z.string().max(100).optional().describe('Only issues assigned to this person'),
      limit: fields.limit(100, 25),
    }),
    execute: (input) => {
      const random = createRandom(input, 'list_linear_issues');
      return {
        issues: Array.from({ length: Math.min(input.limit, random.int(1, 5)) }, () => ({
          identifier: `${input.team.toUpperCase().slice(0, 5)}-${random.int(100, 2000)}`,
          title: random.pick(summaries),
          state: input.state ?? random.pick(['Backlog', 'Todo', 'In Progress']),
          assignee: input.assignee ?? person(random),
        })),
      };
    },
  }),
  defineTool({
    name: 'update_linear_issue',
    description: 'Change the state, assignee, priority or title of a Linear issue.',
    tags: [...linear, 'issues'],
    input: z.object({
      identifier: z.string().min(1).max(40).describe('Issue identifier, e.g. "ENG-512"'),
      state: z.enum(['Backlog', 'Todo', 'In Progress', 'Done', 'Canceled']).optional().describe('New state'),
      assignee: z.string().max(100).optional().describe('New assignee'),
      priority: z.number().int().min(0).max(4).optional().describe('New priority, 0..4'),
      title: z.string().max(255).optional().describe('New title'),
    }),
    execute: (input) => ({
      identifier: input.identifier,
      updated: Object.keys(input).filter((key) => key !== 'identifier'),
    }),
  }),
  defineTool({
    name: 'list_linear_cycles',
    description: 'List the current and upcoming cycles (sprints) of a Linear team with their progress.',
    tags: [...linear, 'sprints'],
    input: z.object({ team: z.string().min(1).max(50).describe('Team key or name') }),
    execute: (input) => {
      const random = createRandom(input, 'list_linear_cycles');
      return {
        cycles: [0, 1].map((offset) => ({
          number: 40 + offset,
          startsAt: addDays(catalogToday, offset * 14 - 3),
          endsAt: addDays(catalogToday, offset * 14 + 11),
          progress: offset === 0 ? random.float(0.1, 0.9) : 0,
        })),
      };
    },
  }),
  defineTool({
    name: 'add_linear_comment',
    description: 'Comment on a Linear issue.',
    tags: [...linear, 'issues', 'comments'],
    input: z.object({
      identifier: z.string().min(1).max(40).describe('Issue identifier, e.g. "ENG-512"'),
      body: fields.text('Comment (Markdown)', 30000),
    }),
    execute: (input) => {
      const random = createRandom(input, 'add_linear_comment');
      return { id: random.id('cmt_'), identifier: input.identifier };
    },
  }),
];
