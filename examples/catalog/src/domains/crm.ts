import { z } from 'zod';
import { defineTool } from '../define-tool';
import { addDays, catalogToday, companies, emailFor, firstNames, lastNames } from '../fake-data';
import { fields } from '../fields';
import { createRandom, type SeededRandom } from '../random';

const tags = ['crm', 'sales'] as const;

const contactId = () => z.string().min(1).max(100).describe('Contact id, e.g. "ct_10442"');
const dealId = () => z.string().min(1).max(100).describe('Deal id, e.g. "deal_2291"');
const stage = z.enum(['lead', 'qualified', 'proposal', 'negotiation', 'won', 'lost']);
const fullName = (random: SeededRandom) => `${random.pick(firstNames)} ${random.pick(lastNames)}`;

export const crmTools = [
  defineTool({
    name: 'create_crm_contact',
    description: 'Create a contact in the CRM with name, email, phone and company.',
    tags: [...tags, 'contacts'],
    input: z.object({
      firstName: z.string().min(1).max(100).describe('First name'),
      lastName: z.string().max(100).optional().describe('Last name'),
      email: fields.email('Email address'),
      phone: z.string().max(30).optional().describe('Phone number'),
      company: z.string().max(200).optional().describe('Company name'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'create_crm_contact');
      return { id: random.id('ct_', { digits: true }), ...input, createdAt: catalogToday };
    },
  }),
  defineTool({
    name: 'get_crm_contact',
    description: 'Get a CRM contact with their company, owner, lifecycle stage and last activity.',
    tags: [...tags, 'contacts'],
    input: z.object({ contactId: contactId() }),
    execute: (input) => {
      const random = createRandom(input, 'get_crm_contact');
      const name = fullName(random);
      const company = random.pick(companies);
      return {
        id: input.contactId,
        name,
        email: emailFor(name, `${company.toLowerCase().replace(/[^a-z]+/g, '')}.com`),
        company,
        owner: fullName(random),
        lifecycleStage: random.pick(['lead', 'opportunity', 'customer']),
        lastActivity: addDays(catalogToday, -random.int(0, 60)),
      };
    },
  }),
  defineTool({
    name: 'search_crm_contacts',
    description: 'Search CRM contacts by name, email or company.',
    tags: [...tags, 'contacts', 'search'],
    input: z.object({
      query: fields.text('Name, email or company to look for', 200),
      limit: fields.limit(100, 10),
    }),
    execute: (input) => {
      const random = createRandom(input, 'search_crm_contacts');
      return {
        contacts: Array.from({ length: Math.min(input.limit, random.int(1, 4)) }, () => {
          const name = fullName(random);
          return {
            id: random.id('ct_', { digits: true }),
            name,
            email: emailFor(name, 'example.com'),
            company: random.pick(companies),
          };
        }),
      };
    },
  }),
  defineTool({
    name: 'update_crm_contact',
    description: 'Update fields of a CRM contact (email, phone, company, lifecycle stage).',
    tags: [...tags, 'contacts'],
    input: z.object({
      contactId: contactId(),
      email: fields.email('New email').optional(),
      phone: z.string().max(30).optional().describe('New phone number'),
      company: z.string().max(200).optional().describe('New company'),
      lifecycleStage: z
        .enum(['lead', 'opportunity', 'customer', 'churned'])
        .optional()
        .describe('New lifecycle stage'),
    }),
    execute: (input) => ({
      id: input.contactId,
      updated: Object.keys(input).filter((key) => key !== 'contactId'),
    }),
  }),
  defineTool({
    name: 'create_crm_company',
    description: 'Create a company (account) in the CRM with its domain, industry and size.',
    tags: [...tags, 'companies'],
    input: z.object({
      name: z.string().min(1).max(200).describe('Company name'),
      domain: z.string().max(200).optional().describe('Website domain, e.g. "globex.com"'),
      industry: z.string().max(100).optional().describe('Industry'),
      employees: z.number().int().min(1).max(10_000_000).optional().describe('Number of employees'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'create_crm_company');
      return { id: random.id('co_', { digits: true }), name: input.name, domain: input.domain ?? null };
    },
  }),
  defineTool({
    name: 'get_crm_company',
    description: 'Get a CRM company with its contacts, open deals and annual revenue.',
    tags: [...tags, 'companies'],
    input: z.object({ companyId: z.string().min(1).max(100).describe('Company id, e.g. "co_5531"') }),
    execute: (input) => {
      const random = createRandom(input, 'get_crm_company');
      return {
        id: input.companyId,
        name: random.pick(companies),
        contacts: random.int(1, 40),
        openDeals: random.int(0, 6),
        annualRevenueUsd: random.int(1, 900) * 100_000,
      };
    },
  }),
  defineTool({
    name: 'create_crm_deal',
    description: 'Create a sales deal for a company with an amount, stage and expected close date.',
    tags: [...tags, 'deals'],
    input: z.object({
      title: fields.text('Deal name', 200),
      company: z.string().min(1).max(200).describe('Company name or id'),
      amount: z.number().min(0).max(1_000_000_000).describe('Deal value in USD'),
      stage: stage.default('lead').describe('Pipeline stage'),
      closeDate: fields.date('Expected close date (YYYY-MM-DD)').optional(),
    }),
    execute: (input) => {
      const random = createRandom(input, 'create_crm_deal');
      return {
        id: random.id('deal_', { digits: true, length: 4 }),
        title: input.title,
        amount: input.amount,
        stage: input.stage,
        closeDate: input.closeDate ?? addDays(catalogToday, 30),
      };
    },
  }),
  defineTool({
    name: 'list_crm_deals',
    description: 'List sales deals, optionally in one pipeline stage or owned by one rep.',
    tags: [...tags, 'deals'],
    input: z.object({
      stage: stage.optional().describe('Only deals in this stage'),
      owner: z.string().max(100).optional().describe('Only deals of this sales rep'),
      limit: fields.limit(100, 10),
    }),
    execute: (input) => {
      const random = createRandom(input, 'list_crm_deals');
      return {
        deals: Array.from({ length: Math.min(input.limit, 5) }, () => ({
          id: random.id('deal_', { digits: true, length: 4 }),
          title: `${random.pick(companies)} – ${random.pick(['annual plan', 'expansion', 'pilot'])}`,
          amount: random.int(5, 300) * 1000,
          stage: input.stage ?? random.pick(stage.options),
          owner: input.owner ?? fullName(random),
        })),
      };
    },
  }),
  defineTool({
    name: 'update_deal_stage',
    description: 'Move a deal to another pipeline stage, e.g. from proposal to won.',
    tags: [...tags, 'deals'],
    input: z.object({
      dealId: dealId(),
      stage: stage.describe('New stage'),
      note: z.string().max(1000).optional().describe('Why it moved'),
    }),
    execute: (input) => ({ id: input.dealId, stage: input.stage, updatedAt: catalogToday }),
  }),
  defineTool({
    name: 'get_pipeline_summary',
    description: 'Summarise the sales pipeline: number and value of deals per stage, and the forecast.',
    tags: [...tags, 'deals', 'reports'],
    input: z.object({ owner: z.string().max(100).optional().describe('Only this sales rep’s deals') }),
    execute: (input) => {
      const random = createRandom(input, 'get_pipeline_summary');
      const stages = stage.options.map((name) => ({
        stage: name,
        deals: random.int(0, 40),
        valueUsd: random.int(0, 90) * 10_000,
      }));
      return {
        stages,
        weightedForecastUsd: Math.round(stages.reduce((sum, row) => sum + row.valueUsd, 0) * 0.35),
      };
    },
  }),
  defineTool({
    name: 'log_crm_activity',
    description: 'Log a call, meeting or email with a contact on their CRM timeline.',
    tags: [...tags, 'activities'],
    input: z.object({
      contactId: contactId(),
      type: z.enum(['call', 'meeting', 'email', 'note']).describe('Kind of activity'),
      summary: fields.text('What happened', 5000),
      date: fields.date('When it happened (YYYY-MM-DD)').optional(),
    }),
    execute: (input) => {
      const random = createRandom(input, 'log_crm_activity');
      return {
        id: random.id('act_'),
        contactId: input.contactId,
        type: input.type,
        date: input.date ?? catalogToday,
      };
    },
  }),
  defineTool({
    name: 'create_crm_task',
    description: 'Create a follow-up task for a sales rep, linked to a contact or deal, with a due date.',
    tags: [...tags, 'tasks'],
    input: z.object({
      title: fields.text('Task title', 200),
      dueDate: fields.date('Due date (YYYY-MM-DD)'),
      contactId: contactId().optional(),
      dealId: dealId().optional(),
    }),
    execute: (input) => {
      const random = createRandom(input, 'create_crm_task');
      return { id: random.id('task_'), title: input.title, dueDate: input.dueDate, status: 'open' };
    },
  }),
  defineTool({
    name: 'list_crm_tasks',
    description: 'List open CRM tasks, optionally only those due by a date.',
    tags: [...tags, 'tasks'],
    input: z.object({
      dueBy: fields.date('Only tasks due on or before this day (YYYY-MM-DD)').optional(),
      limit: fields.limit(100, 10),
    }),
    execute: (input) => {
      const random = createRandom(input, 'list_crm_tasks');
      return {
        tasks: Array.from({ length: Math.min(input.limit, 4) }, () => ({
          id: random.id('task_'),
          title: random.pick(['Send proposal', 'Follow up on pricing', 'Book demo', 'Renewal call']),
          dueDate: input.dueBy ?? addDays(catalogToday, random.int(0, 14)),
        })),
      };
    },
  }),
];
