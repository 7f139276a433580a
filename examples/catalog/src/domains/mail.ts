import { z } from 'zod';
import { defineTool } from '../define-tool';
import { addDays, catalogToday, emailFor, firstNames, lastNames } from '../fake-data';
import { fields } from '../fields';
import { createRandom, type SeededRandom } from '../random';

const tags = ['mail', 'gmail'] as const;

const messageId = () => z.string().min(1).max(100).describe('Message id');
const sender = (random: SeededRandom) =>
  emailFor(
    `${random.pick(firstNames)} ${random.pick(lastNames)}`,
    random.pick(['acme.io', 'globex.com', 'gmail.com']),
  );
const subjects = [
  'Invoice #4821',
  'Re: Q3 planning',
  'Your refund is on its way',
  'Offsite agenda',
  'Contract renewal',
  'Weekly metrics',
];

export const mailTools = [
  defineTool({
    name: 'send_email',
    description: 'Send an email from your mailbox to one or more recipients.',
    tags: [...tags, 'send'],
    input: z.object({
      to: z.array(z.email()).min(1).max(50).describe('Recipient email addresses'),
      subject: fields.text('Subject line', 500),
      body: fields.text('Message body (plain text)', 50000),
      cc: z.array(z.email()).max(50).optional().describe('Copy recipients'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'send_email');
      return {
        id: random.id('msg_'),
        threadId: random.id('thr_'),
        to: input.to,
        subject: input.subject,
        labelIds: ['SENT'],
      };
    },
  }),
  defineTool({
    name: 'search_emails',
    description:
      'Search your mailbox with Gmail query syntax, e.g. "from:ana@acme.io has:attachment newer_than:7d".',
    tags: [...tags, 'search'],
    input: z.object({ query: fields.text('Gmail search query', 1000), limit: fields.limit(100, 20) }),
    execute: (input) => {
      const random = createRandom(input, 'search_emails');
      return {
        resultSizeEstimate: random.int(0, 200),
        messages: Array.from({ length: Math.min(input.limit, random.int(1, 5)) }, () => ({
          id: random.id('msg_'),
          from: sender(random),
          subject: random.pick(subjects),
          date: addDays(catalogToday, -random.int(0, 30)),
          snippet: `… ${input.query.slice(0, 40)} …`,
        })),
      };
    },
  }),
  defineTool({
    name: 'list_inbox_emails',
    description: 'List the latest emails in your inbox, optionally only unread ones.',
    tags: [...tags, 'inbox'],
    input: z.object({
      unreadOnly: z.boolean().default(false).describe('Only unread messages'),
      limit: fields.limit(100, 20),
    }),
    execute: (input) => {
      const random = createRandom(input, 'list_inbox_emails');
      return {
        messages: Array.from({ length: Math.min(input.limit, 5) }, () => ({
          id: random.id('msg_'),
          from: sender(random),
          subject: random.pick(subjects),
          unread: input.unreadOnly || random.bool(0.4),
        })),
      };
    },
  }),
  defineTool({
    name: 'get_email',
    description: 'Read one email: headers, body and attachment names.',
    tags: [...tags, 'read'],
    input: z.object({ messageId: messageId() }),
    execute: (input) => {
      const random = createRandom(input, 'get_email');
      return {
        id: input.messageId,
        from: sender(random),
        to: ['me@acme.io'],
        subject: random.pick(subjects),
        date: addDays(catalogToday, -random.int(0, 30)),
        body: 'Hi,\n\nPlease find the details attached. Let me know if anything is missing.\n\nBest,\n',
        attachments: random.bool(0.5) ? ['details.pdf'] : [],
      };
    },
  }),
  defineTool({
    name: 'reply_to_email',
    description: 'Reply to an email (to its sender, or to all recipients) in the same thread.',
    tags: [...tags, 'send'],
    input: z.object({
      messageId: messageId(),
      body: fields.text('Reply text', 50000),
      replyAll: z.boolean().default(false).describe('Reply to all recipients'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'reply_to_email');
      return {
        id: random.id('msg_'),
        inReplyTo: input.messageId,
        replyAll: input.replyAll,
        labelIds: ['SENT'],
      };
    },
  }),
  defineTool({
    name: 'forward_email',
    description: 'Forward an email, with its attachments, to other recipients with an optional note.',
    tags: [...tags, 'send'],
    input: z.object({
      messageId: messageId(),
      to: z.array(z.email()).min(1).max(50).describe('Recipients'),
      note: z.string().max(10000).optional().describe('Text added above the forwarded message'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'forward_email');
      return { id: random.id('msg_'), forwarded: input.messageId, to: input.to };
    },
  }),
  defineTool({
    name: 'create_email_draft',
    description: 'Save an email as a draft without sending it.',
    tags: [...tags, 'drafts'],
    input: z.object({
      to: z.array(z.email()).max(50).default([]).describe('Recipients'),
      subject: z.string().max(500).default('').describe('Subject line'),
      body: z.string().max(50000).default('').describe('Message body'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'create_email_draft');
      return { draftId: random.id('r-'), subject: input.subject, to: input.to };
    },
  }),
  defineTool({
    name: 'send_email_draft',
    description: 'Send a previously saved draft.',
    tags: [...tags, 'drafts', 'send'],
    input: z.object({ draftId: z.string().min(1).max(100).describe('Draft id') }),
    execute: (input) => {
      const random = createRandom(input, 'send_email_draft');
      return { id: random.id('msg_'), draftId: input.draftId, labelIds: ['SENT'] };
    },
  }),
  defineTool({
    name: 'archive_email',
    description: 'Archive emails: remove them from the inbox without deleting them.',
    tags: [...tags, 'organise'],
    input: z.object({
      messageIds: z.array(z.string().min(1).max(100)).min(1).max(1000).describe('Messages to archive'),
    }),
    execute: (input) => ({ archived: input.messageIds.length }),
  }),
  defineTool({
    name: 'delete_email',
    description: 'Move emails to the trash (they are deleted for good after 30 days).',
    tags: [...tags, 'organise'],
    input: z.object({
      messageIds: z.array(z.string().min(1).max(100)).min(1).max(1000).describe('Messages to delete'),
    }),
    execute: (input) => ({ trashed: input.messageIds.length }),
  }),
  defineTool({
    name: 'label_email',
    description: 'Add or remove labels on emails, e.g. mark them "Finance" or remove "Important".',
    tags: [...tags, 'organise', 'labels'],
    input: z.object({
      messageIds: z.array(z.string().min(1).max(100)).min(1).max(1000).describe('Messages to label'),
      addLabels: z.array(z.string().min(1).max(100)).max(20).default([]).describe('Labels to add'),
      removeLabels: z.array(z.string().min(1).max(100)).max(20).default([]).describe('Labels to remove'),
    }),
    execute: (input) => ({
      modified: input.messageIds.length,
      added: input.addLabels,
      removed: input.removeLabels,
    }),
  }),
  defineTool({
    name: 'list_email_labels',
    description: 'List the labels of your mailbox with their unread counts.',
    tags: [...tags, 'labels'],
    input: z.object({}),
    execute: () => ({
      labels: [
        { name: 'INBOX', unread: 12 },
        { name: 'Finance', unread: 3 },
        { name: 'Travel', unread: 0 },
        { name: 'Newsletters', unread: 41 },
      ],
    }),
  }),
  defineTool({
    name: 'mark_email_read',
    description: 'Mark emails as read or unread.',
    tags: [...tags, 'organise'],
    input: z.object({
      messageIds: z.array(z.string().min(1).max(100)).min(1).max(1000).describe('Messages to mark'),
      read: z.boolean().default(true).describe('true for read, false for unread'),
    }),
    execute: (input) => ({ modified: input.messageIds.length, read: input.read }),
  }),
];
