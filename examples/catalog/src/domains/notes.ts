import { z } from 'zod';
import { defineTool } from '../define-tool';
import { addDays, catalogToday } from '../fake-data';
import { fields } from '../fields';
import { createRandom } from '../random';

const tags = ['notes', 'notion'] as const;

const pageId = () => z.string().min(1).max(100).describe('Notion page id');

export const notesTools = [
  defineTool({
    name: 'search_notion_pages',
    description: 'Search Notion pages and databases by title or content.',
    tags: [...tags, 'search'],
    input: z.object({ query: fields.text('Words to look for', 500), limit: fields.limit(100, 10) }),
    execute: (input) => {
      const random = createRandom(input, 'search_notion_pages');
      return {
        results: Array.from({ length: Math.min(input.limit, random.int(1, 4)) }, () => ({
          id: random.id('', { length: 32 }),
          title: `${input.query.slice(0, 40)} – ${random.pick(['meeting notes', 'spec', 'runbook', 'retro'])}`,
          lastEdited: addDays(catalogToday, -random.int(0, 60)),
        })),
      };
    },
  }),
  defineTool({
    name: 'get_notion_page',
    description: 'Read a Notion page: its title, properties and content as Markdown.',
    tags: [...tags, 'pages'],
    input: z.object({ pageId: pageId() }),
    execute: (input) => {
      const random = createRandom(input, 'get_notion_page');
      return {
        id: input.pageId,
        title: random.pick(['Refund runbook', 'Q3 OKRs', 'Onboarding']),
        markdown: '# Overview\n\n- Owner: payments team\n- Status: draft\n',
      };
    },
  }),
  defineTool({
    name: 'create_notion_page',
    description: 'Create a Notion page under a parent page, with a title and Markdown content.',
    tags: [...tags, 'pages'],
    input: z.object({
      parentId: z.string().min(1).max(100).default('workspace').describe('Parent page id'),
      title: fields.text('Page title', 300),
      markdown: z.string().max(100000).default('').describe('Page content (Markdown)'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'create_notion_page');
      const id = random.id('', { length: 32 });
      return { id, title: input.title, url: `https://notion.so/${id}` };
    },
  }),
  defineTool({
    name: 'append_to_notion_page',
    description: 'Append Markdown blocks at the end of a Notion page.',
    tags: [...tags, 'pages'],
    input: z.object({ pageId: pageId(), markdown: fields.text('Content to append (Markdown)', 100000) }),
    execute: (input) => ({
      id: input.pageId,
      appendedBlocks: input.markdown.split('\n').filter(Boolean).length,
    }),
  }),
  defineTool({
    name: 'query_notion_database',
    description: 'Query a Notion database with a filter on a property, sorted by another.',
    tags: [...tags, 'databases'],
    input: z.object({
      databaseId: z.string().min(1).max(100).describe('Database id'),
      filterProperty: z.string().max(100).optional().describe('Property to filter on, e.g. "Status"'),
      filterValue: z.string().max(200).optional().describe('Value the property must equal'),
      limit: fields.limit(100, 20),
    }),
    execute: (input) => {
      const random = createRandom(input, 'query_notion_database');
      return {
        rows: Array.from({ length: Math.min(input.limit, 3) }, () => ({
          id: random.id('', { length: 32 }),
          Name: random.pick(['Launch checklist', 'Bug bash', 'Pricing page copy']),
          Status: input.filterValue ?? random.pick(['Not started', 'In progress', 'Done']),
        })),
      };
    },
  }),
  defineTool({
    name: 'add_notion_database_row',
    description: 'Add a row (page) to a Notion database with property values.',
    tags: [...tags, 'databases'],
    input: z.object({
      databaseId: z.string().min(1).max(100).describe('Database id'),
      name: fields.text('Title of the row', 300),
      properties: z
        .record(z.string(), z.string())
        .default({})
        .describe('Other property values by property name'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'add_notion_database_row');
      return { id: random.id('', { length: 32 }), name: input.name, properties: input.properties };
    },
  }),
  defineTool({
    name: 'create_note',
    description: 'Save a quick personal note with an optional tag.',
    tags: ['notes', 'quick-notes'],
    input: z.object({
      text: fields.text('The note', 20000),
      tag: z.string().max(50).optional().describe('Tag, e.g. "ideas"'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'create_note');
      return { id: random.id('note_'), tag: input.tag ?? null, created: catalogToday };
    },
  }),
  defineTool({
    name: 'list_notes',
    description: 'List your quick notes, newest first, optionally with one tag.',
    tags: ['notes', 'quick-notes'],
    input: z.object({
      tag: z.string().max(50).optional().describe('Only notes with this tag'),
      limit: fields.limit(100, 20),
    }),
    execute: (input) => {
      const random = createRandom(input, 'list_notes');
      return {
        notes: Array.from({ length: Math.min(input.limit, 3) }, (_, index) => ({
          id: random.id('note_'),
          text: random.pick(['Call the bank about the card', 'Idea: dark mode for reports', 'Buy a charger']),
          tag: input.tag ?? null,
          created: addDays(catalogToday, -index),
        })),
      };
    },
  }),
];
