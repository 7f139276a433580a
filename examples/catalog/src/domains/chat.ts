import { z } from 'zod';
import { defineTool } from '../define-tool';
import { firstNames, lastNames } from '../fake-data';
import { fields } from '../fields';
import { createRandom, type SeededRandom } from '../random';

const slack = ['chat', 'slack'] as const;

const channel = () => z.string().min(1).max(80).describe('Channel name, e.g. "#general", or channel id');
const slackUser = (random: SeededRandom) =>
  `${random.pick(firstNames)}.${random.pick(lastNames)}`.toLowerCase();
/** A Slack message timestamp: seconds.micro as a string. */
const messageTs = (random: SeededRandom) =>
  `17500${random.int(10_000, 99_999)}.${random.int(100_000, 999_999)}`;
const channelName = (value: string) => value.replace(/^#/, '');
const chatter = [
  'Deploy is done, all green.',
  'Can someone review my PR?',
  'Refunds are failing for EU cards again.',
  'Lunch at 12:30?',
  'The dashboard numbers look off since Monday.',
];

export const chatTools = [
  defineTool({
    name: 'send_slack_message',
    description: 'Post a message to a Slack channel as the bot user.',
    tags: [...slack, 'messages'],
    input: z.object({
      channel: channel(),
      text: fields.text('Message text (Slack mrkdwn)', 4000),
    }),
    execute: (input) => {
      const random = createRandom(input, 'send_slack_message');
      return { ok: true, channel: channelName(input.channel), ts: messageTs(random), text: input.text };
    },
  }),
  defineTool({
    name: 'reply_in_slack_thread',
    description: 'Reply in the thread of an existing Slack message, optionally also posting to the channel.',
    tags: [...slack, 'messages', 'threads'],
    input: z.object({
      channel: channel(),
      threadTs: z.string().min(1).max(40).describe('Timestamp of the parent message'),
      text: fields.text('Reply text', 4000),
      broadcast: z.boolean().default(false).describe('Also post the reply to the channel'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'reply_in_slack_thread');
      return {
        ok: true,
        channel: channelName(input.channel),
        threadTs: input.threadTs,
        ts: messageTs(random),
      };
    },
  }),
  defineTool({
    name: 'list_slack_channels',
    description: 'List the Slack channels of the workspace with their topic and member count.',
    tags: [...slack, 'channels'],
    input: z.object({
      includePrivate: z.boolean().default(false).describe('Include private channels the bot is in'),
      limit: fields.limit(1000, 50),
    }),
    execute: (input) => {
      const random = createRandom(input, 'list_slack_channels');
      const names = [
        'general',
        'random',
        'engineering',
        'payments-alerts',
        'design',
        'sales',
        'support',
        'incidents',
      ];
      return {
        channels: names.slice(0, Math.min(input.limit, names.length)).map((name) => ({
          id: random.id('C', { length: 9 }).toUpperCase(),
          name,
          members: random.int(3, 400),
          private: input.includePrivate && random.bool(0.2),
        })),
      };
    },
  }),
  defineTool({
    name: 'get_slack_channel_history',
    description: 'Read the latest messages of a Slack channel, newest first.',
    tags: [...slack, 'messages', 'channels'],
    input: z.object({ channel: channel(), limit: fields.limit(200, 20) }),
    execute: (input) => {
      const random = createRandom(input, 'get_slack_channel_history');
      return {
        channel: channelName(input.channel),
        messages: Array.from({ length: Math.min(input.limit, 5) }, () => ({
          user: slackUser(random),
          text: random.pick(chatter),
          ts: messageTs(random),
          replies: random.int(0, 6),
        })),
      };
    },
  }),
  defineTool({
    name: 'search_slack_messages',
    description: 'Search messages across the Slack workspace by keywords, channel or author.',
    tags: [...slack, 'messages', 'search'],
    input: z.object({
      query: fields.text('Search words; supports in:#channel and from:@user', 500),
      limit: fields.limit(100, 20),
    }),
    execute: (input) => {
      const random = createRandom(input, 'search_slack_messages');
      return {
        total: random.int(0, 80),
        matches: Array.from({ length: Math.min(input.limit, random.int(1, 4)) }, () => ({
          channel: random.pick(['general', 'engineering', 'support']),
          user: slackUser(random),
          text: `${random.pick(chatter)} (${input.query.slice(0, 40)})`,
          ts: messageTs(random),
        })),
      };
    },
  }),
  defineTool({
    name: 'create_slack_channel',
    description: 'Create a public or private Slack channel.',
    tags: [...slack, 'channels'],
    input: z.object({
      name: z.string().min(1).max(80).describe('Channel name: lowercase, no spaces, e.g. "launch-week"'),
      isPrivate: z.boolean().default(false).describe('Create a private channel'),
      topic: z.string().max(250).optional().describe('Channel topic'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'create_slack_channel');
      const name = input.name.toLowerCase().replace(/[^a-z0-9_-]+/g, '-');
      return { ok: true, id: random.id('C', { length: 9 }).toUpperCase(), name, isPrivate: input.isPrivate };
    },
  }),
  defineTool({
    name: 'invite_to_slack_channel',
    description: 'Invite one or more users to a Slack channel.',
    tags: [...slack, 'channels', 'members'],
    input: z.object({
      channel: channel(),
      users: z.array(z.string().min(1).max(100)).min(1).max(30).describe('User names or ids to invite'),
    }),
    execute: (input) => ({ ok: true, channel: channelName(input.channel), invited: input.users }),
  }),
  defineTool({
    name: 'add_slack_reaction',
    description: 'Add an emoji reaction to a Slack message.',
    tags: [...slack, 'reactions'],
    input: z.object({
      channel: channel(),
      messageTs: z.string().min(1).max(40).describe('Timestamp of the message'),
      emoji: z.string().min(1).max(60).default('thumbsup').describe('Emoji name without colons, e.g. "eyes"'),
    }),
    execute: (input) => ({ ok: true, emoji: input.emoji.replace(/:/g, ''), messageTs: input.messageTs }),
  }),
  defineTool({
    name: 'pin_slack_message',
    description: 'Pin a message to a Slack channel so it stays at the top of the channel details.',
    tags: [...slack, 'messages'],
    input: z.object({
      channel: channel(),
      messageTs: z.string().min(1).max(40).describe('Timestamp of the message'),
    }),
    execute: (input) => ({
      ok: true,
      pinned: true,
      channel: channelName(input.channel),
      messageTs: input.messageTs,
    }),
  }),
  defineTool({
    name: 'set_slack_status',
    description: "Set the bot user's Slack status text and emoji, optionally until a given time.",
    tags: [...slack, 'profile'],
    input: z.object({
      text: z.string().max(100).describe('Status text, e.g. "In a meeting"'),
      emoji: z.string().max(60).default('speech_balloon').describe('Status emoji name'),
      expiresAt: fields.dateTime('When the status clears (ISO 8601 UTC)').optional(),
    }),
    execute: (input) => ({
      ok: true,
      status: { text: input.text, emoji: input.emoji, expiresAt: input.expiresAt ?? null },
    }),
  }),
  defineTool({
    name: 'upload_slack_file',
    description: 'Share a text file (a snippet, a log, a CSV) in a Slack channel.',
    tags: [...slack, 'files'],
    input: z.object({
      channel: channel(),
      filename: z.string().min(1).max(200).describe('File name, e.g. "report.csv"'),
      content: fields.text('File content', 100000),
      comment: z.string().max(4000).optional().describe('Message posted with the file'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'upload_slack_file');
      return { ok: true, fileId: random.id('F', { length: 10 }).toUpperCase(), size: input.content.length };
    },
  }),
  defineTool({
    name: 'send_slack_direct_message',
    description: 'Send a direct message to one Slack user.',
    tags: [...slack, 'messages', 'direct-messages'],
    input: z.object({
      user: z.string().min(1).max(100).describe('User name, email or id'),
      text: fields.text('Message text', 4000),
    }),
    execute: (input) => {
      const random = createRandom(input, 'send_slack_direct_message');
      return { ok: true, user: input.user, ts: messageTs(random) };
    },
  }),
  defineTool({
    name: 'send_discord_message',
    description: 'Send a message to a channel of a Discord server as the bot.',
    tags: ['chat', 'discord', 'messages'],
    input: z.object({
      server: z.string().min(1).max(100).describe('Discord server (guild) name or id'),
      channel: channel(),
      content: fields.text('Message content', 2000),
    }),
    execute: (input) => {
      const random = createRandom(input, 'send_discord_message');
      return {
        id: String(random.int(100_000_000, 999_999_999)),
        channel: channelName(input.channel),
        content: input.content,
      };
    },
  }),
  defineTool({
    name: 'list_discord_channels',
    description: 'List the text and voice channels of a Discord server.',
    tags: ['chat', 'discord', 'channels'],
    input: z.object({ server: z.string().min(1).max(100).describe('Discord server (guild) name or id') }),
    execute: (input) => {
      const random = createRandom(input, 'list_discord_channels');
      return {
        server: input.server,
        channels: ['welcome', 'general', 'help', 'announcements', 'voice-lounge'].map((name) => ({
          id: String(random.int(100_000_000, 999_999_999)),
          name,
          type: name.startsWith('voice') ? 'voice' : 'text',
        })),
      };
    },
  }),
  defineTool({
    name: 'send_teams_message',
    description: 'Post a message to a channel of a Microsoft Teams team.',
    tags: ['chat', 'teams', 'messages'],
    input: z.object({
      team: z.string().min(1).max(100).describe('Team name'),
      channel: channel(),
      message: fields.text('Message text (HTML or plain text)', 4000),
    }),
    execute: (input) => {
      const random = createRandom(input, 'send_teams_message');
      return { id: random.id('msg_'), team: input.team, channel: channelName(input.channel) };
    },
  }),
];
