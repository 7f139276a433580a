import { z } from 'zod';
import { defineTool } from '../define-tool';
import { addDays, catalogToday, firstNames, lastNames, repositories } from '../fake-data';
import { fields } from '../fields';
import { createRandom, type SeededRandom } from '../random';

const tags = ['code-hosting', 'github'] as const;

const owner = () =>
  z.string().min(1).max(100).default('acme').describe('Repository owner (user or organisation)');
const repo = () => z.string().min(1).max(100).describe('Repository name, e.g. "payments"');
const number = (what: string) => z.number().int().min(1).describe(`${what} number`);

const login = (random: SeededRandom) => `${random.pick(firstNames)}${random.pick(lastNames)}`.toLowerCase();
const sha = (random: SeededRandom) => random.id('', { length: 40 });
const pastDate = (random: SeededRandom) => addDays(catalogToday, -random.int(0, 60));

const prTitles = [
  'Fix rounding in invoice totals',
  'Add retry to webhook delivery',
  'Bump dependencies',
  'Refactor auth middleware',
  'Speed up search indexing',
  'Handle partial refunds',
];

export const codeHostingTools = [
  defineTool({
    name: 'list_github_repos',
    description: 'List the repositories of a GitHub user or organisation, most recently pushed first.',
    tags: [...tags, 'repositories'],
    input: z.object({
      owner: owner(),
      visibility: z
        .enum(['all', 'public', 'private'])
        .default('all')
        .describe('Which repositories to include'),
      limit: fields.limit(100, 20),
    }),
    execute: ({ owner, visibility, limit }) => {
      const random = createRandom({ owner, visibility }, 'list_github_repos');
      return {
        owner,
        repositories: repositories.slice(0, Math.min(limit, repositories.length)).map((name) => ({
          fullName: `${owner}/${name}`,
          private: visibility === 'public' ? false : random.bool(0.6),
          stars: random.int(0, 900),
          defaultBranch: 'main',
          pushedAt: pastDate(random),
        })),
      };
    },
  }),
  defineTool({
    name: 'get_github_repo',
    description:
      'Get the details of one GitHub repository: description, default branch, stars, open issues and language.',
    tags: [...tags, 'repositories'],
    input: z.object({ owner: owner(), repo: repo() }),
    execute: ({ owner, repo }) => {
      const random = createRandom({ owner, repo }, 'get_github_repo');
      return {
        fullName: `${owner}/${repo}`,
        description: `The ${repo} service of ${owner}`,
        defaultBranch: 'main',
        language: random.pick(['TypeScript', 'Go', 'Python', 'Rust']),
        stars: random.int(0, 2000),
        forks: random.int(0, 200),
        openIssues: random.int(0, 80),
        createdAt: addDays(catalogToday, -random.int(200, 2000)),
      };
    },
  }),
  defineTool({
    name: 'search_github_repos',
    description: 'Search public GitHub repositories by keywords, language or topic.',
    tags: [...tags, 'repositories', 'search'],
    input: z.object({
      query: fields.text('Search keywords, e.g. "react state management"', 256),
      language: z.string().max(40).optional().describe('Only repositories in this language'),
      limit: fields.limit(50, 10),
    }),
    execute: ({ query, language, limit }) => {
      const random = createRandom({ query, language }, 'search_github_repos');
      const slug =
        query
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .slice(0, 30) || 'project';
      return {
        totalCount: random.int(limit, 5000),
        items: Array.from({ length: Math.min(limit, 5) }, (_, index) => ({
          fullName: `${login(random)}/${slug}${index === 0 ? '' : `-${index}`}`,
          language: language ?? random.pick(['TypeScript', 'JavaScript', 'Python']),
          stars: random.int(10, 40000),
        })),
      };
    },
  }),
  defineTool({
    name: 'list_github_prs',
    description: 'List pull requests in a GitHub repository, filtered by state.',
    tags: [...tags, 'pull-requests'],
    input: z.object({
      owner: owner(),
      repo: repo(),
      state: z.enum(['open', 'closed', 'all']).default('open').describe('Pull request state'),
      limit: fields.limit(100, 20),
    }),
    execute: ({ owner, repo, state, limit }) => {
      const random = createRandom({ owner, repo, state }, 'list_github_prs');
      return {
        repository: `${owner}/${repo}`,
        pullRequests: Array.from({ length: Math.min(limit, random.int(1, 6)) }, () => ({
          number: random.int(1, 900),
          title: random.pick(prTitles),
          author: login(random),
          state: state === 'all' ? random.pick(['open', 'closed']) : state,
          draft: random.bool(0.2),
          updatedAt: pastDate(random),
        })),
      };
    },
  }),
  defineTool({
    name: 'get_github_pr',
    description:
      'Get one pull request of a GitHub repository: title, author, branches, review and check status.',
    tags: [...tags, 'pull-requests'],
    input: z.object({ owner: owner(), repo: repo(), pullNumber: number('Pull request') }),
    execute: ({ owner, repo, pullNumber }) => {
      const random = createRandom({ owner, repo, pullNumber }, 'get_github_pr');
      return {
        repository: `${owner}/${repo}`,
        number: pullNumber,
        title: random.pick(prTitles),
        author: login(random),
        state: random.pick(['open', 'open', 'closed', 'merged']),
        head: `feature/${random.id('', { length: 4 })}`,
        base: 'main',
        mergeable: random.bool(0.8),
        reviewDecision: random.pick(['APPROVED', 'REVIEW_REQUIRED', 'CHANGES_REQUESTED']),
        checks: { passed: random.int(3, 12), failed: random.int(0, 2) },
        additions: random.int(1, 800),
        deletions: random.int(0, 400),
      };
    },
  }),
  defineTool({
    name: 'create_github_pr',
    description: 'Open a pull request in a GitHub repository from a head branch into a base branch.',
    tags: [...tags, 'pull-requests'],
    input: z.object({
      owner: owner(),
      repo: repo(),
      title: fields.text('Pull request title', 256),
      head: z.string().min(1).max(200).describe('Branch with the changes'),
      base: z.string().min(1).max(200).default('main').describe('Branch to merge into'),
      body: z.string().max(10000).optional().describe('Pull request description (Markdown)'),
      draft: z.boolean().default(false).describe('Open as a draft'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'create_github_pr');
      const pr = random.int(100, 999);
      return {
        number: pr,
        url: `https://github.com/${input.owner}/${input.repo}/pull/${pr}`,
        title: input.title,
        head: input.head,
        base: input.base,
        draft: input.draft,
        state: 'open',
      };
    },
  }),
  defineTool({
    name: 'merge_github_pr',
    description: 'Merge a pull request of a GitHub repository with a merge commit, squash or rebase.',
    tags: [...tags, 'pull-requests'],
    input: z.object({
      owner: owner(),
      repo: repo(),
      pullNumber: number('Pull request'),
      method: z.enum(['merge', 'squash', 'rebase']).default('squash').describe('Merge method'),
      commitTitle: z.string().max(256).optional().describe('Title of the merge commit'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'merge_github_pr');
      return {
        merged: true,
        method: input.method,
        sha: sha(random),
        message: `Pull request #${input.pullNumber} merged`,
      };
    },
  }),
  defineTool({
    name: 'list_github_pr_files',
    description: 'List the files changed by a pull request, with additions and deletions per file.',
    tags: [...tags, 'pull-requests'],
    input: z.object({ owner: owner(), repo: repo(), pullNumber: number('Pull request') }),
    execute: (input) => {
      const random = createRandom(input, 'list_github_pr_files');
      const files = [
        'src/index.ts',
        'src/refunds.ts',
        'src/webhooks.ts',
        'README.md',
        'package.json',
        'test/refunds.test.ts',
      ];
      return {
        files: random.sample(files, random.int(1, 4)).map((filename) => ({
          filename,
          status: random.pick(['modified', 'added', 'removed']),
          additions: random.int(0, 200),
          deletions: random.int(0, 80),
        })),
      };
    },
  }),
  defineTool({
    name: 'create_github_pr_review',
    description: 'Submit a review on a pull request: approve it, request changes or leave a comment.',
    tags: [...tags, 'pull-requests', 'reviews'],
    input: z.object({
      owner: owner(),
      repo: repo(),
      pullNumber: number('Pull request'),
      event: z.enum(['APPROVE', 'REQUEST_CHANGES', 'COMMENT']).describe('Review verdict'),
      body: z.string().max(10000).optional().describe('Review comment'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'create_github_pr_review');
      return {
        id: random.int(1_000_000, 9_999_999),
        state: input.event === 'APPROVE' ? 'APPROVED' : input.event,
        submitted: true,
      };
    },
  }),
  defineTool({
    name: 'list_github_issues',
    description: 'List issues in a GitHub repository, filtered by state, label or assignee.',
    tags: [...tags, 'issues'],
    input: z.object({
      owner: owner(),
      repo: repo(),
      state: z.enum(['open', 'closed', 'all']).default('open').describe('Issue state'),
      label: z.string().max(50).optional().describe('Only issues with this label'),
      assignee: z.string().max(100).optional().describe('Only issues assigned to this login'),
      limit: fields.limit(100, 20),
    }),
    execute: (input) => {
      const random = createRandom(input, 'list_github_issues');
      return {
        repository: `${input.owner}/${input.repo}`,
        issues: Array.from({ length: Math.min(input.limit, random.int(0, 6)) }, () => ({
          number: random.int(1, 900),
          title: random.pick([
            'Refund webhook times out',
            'Typo in docs',
            'Login loops on Safari',
            'Export to CSV is slow',
          ]),
          state: input.state === 'all' ? random.pick(['open', 'closed']) : input.state,
          labels: input.label ? [input.label] : random.sample(['bug', 'enhancement', 'good first issue'], 1),
          assignee: input.assignee ?? login(random),
        })),
      };
    },
  }),
  defineTool({
    name: 'get_github_issue',
    description: 'Get one issue of a GitHub repository with its body, labels, assignees and comment count.',
    tags: [...tags, 'issues'],
    input: z.object({ owner: owner(), repo: repo(), issueNumber: number('Issue') }),
    execute: (input) => {
      const random = createRandom(input, 'get_github_issue');
      return {
        number: input.issueNumber,
        title: random.pick(['Refund webhook times out', 'Login loops on Safari', 'Export to CSV is slow']),
        state: random.pick(['open', 'closed']),
        author: login(random),
        labels: random.sample(['bug', 'p1', 'enhancement', 'needs-triage'], 2),
        comments: random.int(0, 25),
        createdAt: pastDate(random),
      };
    },
  }),
  defineTool({
    name: 'create_github_issue',
    description: 'Open a new issue in a GitHub repository, with a title, body, labels and assignees.',
    tags: [...tags, 'issues'],
    input: z.object({
      owner: owner(),
      repo: repo(),
      title: fields.text('Issue title', 256),
      body: z.string().max(20000).optional().describe('Issue description (Markdown)'),
      labels: z.array(z.string().min(1).max(50)).max(10).optional().describe('Labels to add, e.g. ["bug"]'),
      assignees: z.array(z.string().min(1).max(100)).max(10).optional().describe('Logins to assign'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'create_github_issue');
      const issue = random.int(100, 999);
      return {
        number: issue,
        url: `https://github.com/${input.owner}/${input.repo}/issues/${issue}`,
        title: input.title,
        labels: input.labels ?? [],
        assignees: input.assignees ?? [],
        state: 'open',
      };
    },
  }),
  defineTool({
    name: 'comment_on_github_issue',
    description: 'Add a comment to an issue or pull request of a GitHub repository.',
    tags: [...tags, 'issues', 'comments'],
    input: z.object({
      owner: owner(),
      repo: repo(),
      issueNumber: number('Issue or pull request'),
      body: fields.text('Comment text (Markdown)', 20000),
    }),
    execute: (input) => {
      const random = createRandom(input, 'comment_on_github_issue');
      const id = random.int(1_000_000_000, 1_999_999_999);
      return {
        id,
        url: `https://github.com/${input.owner}/${input.repo}/issues/${input.issueNumber}#issuecomment-${id}`,
      };
    },
  }),
  defineTool({
    name: 'close_github_issue',
    description: 'Close an issue of a GitHub repository as completed or not planned.',
    tags: [...tags, 'issues'],
    input: z.object({
      owner: owner(),
      repo: repo(),
      issueNumber: number('Issue'),
      reason: z.enum(['completed', 'not_planned']).default('completed').describe('Why the issue is closed'),
    }),
    execute: (input) => ({ number: input.issueNumber, state: 'closed', stateReason: input.reason }),
  }),
  defineTool({
    name: 'list_github_branches',
    description: 'List the branches of a GitHub repository, with their latest commit.',
    tags: [...tags, 'branches'],
    input: z.object({ owner: owner(), repo: repo(), limit: fields.limit(100, 30) }),
    execute: (input) => {
      const random = createRandom(input, 'list_github_branches');
      const names = ['main', 'develop', 'release/2.4', 'feature/refund-retries', 'fix/safari-login'];
      return {
        branches: names.slice(0, Math.min(input.limit, names.length)).map((name) => ({
          name,
          protected: name === 'main',
          commit: sha(random).slice(0, 7),
        })),
      };
    },
  }),
  defineTool({
    name: 'create_github_branch',
    description: 'Create a branch in a GitHub repository from another branch or a commit.',
    tags: [...tags, 'branches'],
    input: z.object({
      owner: owner(),
      repo: repo(),
      branch: z.string().min(1).max(200).describe('Name of the new branch'),
      from: z.string().min(1).max(200).default('main').describe('Branch or commit SHA to start from'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'create_github_branch');
      return { ref: `refs/heads/${input.branch}`, sha: sha(random), from: input.from };
    },
  }),
  defineTool({
    name: 'get_github_file_contents',
    description: 'Read a file from a GitHub repository at a branch, tag or commit.',
    tags: [...tags, 'files'],
    input: z.object({
      owner: owner(),
      repo: repo(),
      path: z.string().min(1).max(500).describe('File path in the repository, e.g. "src/index.ts"'),
      ref: z.string().max(200).optional().describe('Branch, tag or commit (default branch when omitted)'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'get_github_file_contents');
      return {
        path: input.path,
        ref: input.ref ?? 'main',
        sha: sha(random),
        size: random.int(80, 9000),
        content: `// ${input.path} in ${input.owner}/${input.repo}\nexport const version = '${random.int(1, 4)}.${random.int(0, 20)}.0';\n`,
      };
    },
  }),
  defineTool({
    name: 'search_github_code',
    description: 'Search code across GitHub repositories; returns matching files with line fragments.',
    tags: [...tags, 'search', 'files'],
    input: z.object({
      query: fields.text('Code search query, e.g. "createRefund language:ts"', 256),
      owner: z.string().max(100).optional().describe('Only search repositories of this owner'),
      limit: fields.limit(50, 10),
    }),
    execute: (input) => {
      const random = createRandom(input, 'search_github_code');
      return {
        totalCount: random.int(0, 120),
        items: Array.from({ length: Math.min(input.limit, random.int(1, 5)) }, () => ({
          repository: `${input.owner ?? 'acme'}/${random.pick(repositories)}`,
          path: random.pick(['src/refunds.ts', 'src/api/client.ts', 'lib/util.go', 'app/models.py']),
          fragment: `… ${input.query.slice(0, 60)} …`,
        })),
      };
    },
  }),
  defineTool({
    name: 'list_github_commits',
    description: 'List the commits on a branch of a GitHub repository, newest first.',
    tags: [...tags, 'commits'],
    input: z.object({
      owner: owner(),
      repo: repo(),
      branch: z.string().max(200).default('main').describe('Branch to list'),
      author: z.string().max(100).optional().describe('Only commits by this login'),
      limit: fields.limit(100, 20),
    }),
    execute: (input) => {
      const random = createRandom(input, 'list_github_commits');
      return {
        commits: Array.from({ length: Math.min(input.limit, 5) }, () => ({
          sha: sha(random).slice(0, 7),
          message: random.pick([
            'fix: handle null refund id',
            'chore: bump deps',
            'feat: add export button',
            'docs: update README',
          ]),
          author: input.author ?? login(random),
          date: pastDate(random),
        })),
      };
    },
  }),
  defineTool({
    name: 'list_github_workflow_runs',
    description: 'List recent GitHub Actions workflow runs of a repository with their status and conclusion.',
    tags: [...tags, 'ci', 'actions'],
    input: z.object({
      owner: owner(),
      repo: repo(),
      status: z
        .enum(['completed', 'in_progress', 'queued', 'failure', 'success'])
        .optional()
        .describe('Only runs in this status'),
      limit: fields.limit(100, 10),
    }),
    execute: (input) => {
      const random = createRandom(input, 'list_github_workflow_runs');
      return {
        runs: Array.from({ length: Math.min(input.limit, 4) }, () => ({
          id: random.int(10_000_000, 99_999_999),
          workflow: random.pick(['CI', 'Deploy', 'Nightly']),
          branch: random.pick(['main', 'develop']),
          status: 'completed',
          conclusion: input.status === 'failure' ? 'failure' : random.pick(['success', 'success', 'failure']),
          durationSeconds: random.int(40, 900),
        })),
      };
    },
  }),
  defineTool({
    name: 'rerun_github_workflow',
    description: 'Re-run a GitHub Actions workflow run, optionally only its failed jobs.',
    tags: [...tags, 'ci', 'actions'],
    input: z.object({
      owner: owner(),
      repo: repo(),
      runId: z.number().int().min(1).describe('Workflow run id'),
      failedJobsOnly: z.boolean().default(true).describe('Re-run only the jobs that failed'),
    }),
    execute: (input) => ({ runId: input.runId, status: 'queued', failedJobsOnly: input.failedJobsOnly }),
  }),
  defineTool({
    name: 'create_github_release',
    description: 'Publish a release of a GitHub repository from a tag, with release notes.',
    tags: [...tags, 'releases'],
    input: z.object({
      owner: owner(),
      repo: repo(),
      tag: z.string().min(1).max(100).describe('Tag to release, e.g. "v2.4.0"'),
      name: z.string().max(200).optional().describe('Release title'),
      notes: z.string().max(20000).optional().describe('Release notes (Markdown)'),
      prerelease: z.boolean().default(false).describe('Mark as a pre-release'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'create_github_release');
      return {
        id: random.int(100_000, 999_999),
        tag: input.tag,
        url: `https://github.com/${input.owner}/${input.repo}/releases/tag/${encodeURIComponent(input.tag)}`,
        prerelease: input.prerelease,
      };
    },
  }),
];
