import { z } from 'zod';
import { defineTool } from '../define-tool';
import { addDays, daysBetween } from '../fake-data';
import { fields } from '../fields';
import { createRandom } from '../random';

const tags = ['analytics', 'web-analytics'] as const;

const property = () =>
  z.string().min(1).max(100).default('acme.io').describe('Analytics property (site or app)');
const range = () => ({
  startDate: fields.date('First day of the period (YYYY-MM-DD)'),
  endDate: fields.date('Last day of the period (YYYY-MM-DD)'),
});
const spanDays = (startDate: string, endDate: string) => Math.max(1, daysBetween(startDate, endDate) + 1);
const metric = z.enum(['users', 'sessions', 'pageviews', 'conversions', 'revenue', 'bounce_rate']);

export const analyticsTools = [
  defineTool({
    name: 'run_analytics_report',
    description:
      'Run a report of metrics broken down by dimensions (country, device, source…) over a date range.',
    tags: [...tags, 'reports'],
    input: z.object({
      property: property(),
      ...range(),
      metrics: z.array(metric).min(1).max(10).default(['users']).describe('Metrics to compute'),
      dimension: z
        .enum(['country', 'device', 'source', 'page', 'browser'])
        .default('country')
        .describe('Break results down by this'),
      limit: fields.limit(1000, 10),
    }),
    execute: (input) => {
      const random = createRandom(input, 'run_analytics_report');
      const values = {
        country: ['Portugal', 'Italy', 'United States', 'Germany'],
        device: ['desktop', 'mobile', 'tablet'],
        source: ['google', 'direct', 'newsletter', 'twitter'],
        page: ['/', '/pricing', '/blog', '/signup'],
        browser: ['Chrome', 'Safari', 'Firefox'],
      }[input.dimension];
      const scale = spanDays(input.startDate, input.endDate);
      return {
        period: { start: input.startDate, end: input.endDate },
        rows: values.slice(0, input.limit).map((value) => ({
          [input.dimension]: value,
          ...Object.fromEntries(
            input.metrics.map((name) => [
              name,
              name === 'bounce_rate' ? random.float(0.2, 0.7) : random.int(10, 2000) * scale,
            ]),
          ),
        })),
      };
    },
  }),
  defineTool({
    name: 'get_realtime_users',
    description: 'Get how many users are on the site right now, by page and country.',
    tags: [...tags, 'realtime'],
    input: z.object({ property: property() }),
    execute: (input) => {
      const random = createRandom(input, 'get_realtime_users');
      return {
        activeUsers: random.int(5, 900),
        topPages: [
          { page: '/', users: random.int(1, 200) },
          { page: '/pricing', users: random.int(1, 80) },
        ],
      };
    },
  }),
  defineTool({
    name: 'get_top_pages',
    description: 'Get the most viewed pages of a site over a date range.',
    tags: [...tags, 'pages'],
    input: z.object({ property: property(), ...range(), limit: fields.limit(100, 10) }),
    execute: (input) => {
      const random = createRandom(input, 'get_top_pages');
      return {
        pages: ['/', '/pricing', '/blog/tool-search', '/docs', '/signup']
          .slice(0, input.limit)
          .map((page) => ({ page, pageviews: random.int(100, 90_000), avgTimeSeconds: random.int(10, 300) })),
      };
    },
  }),
  defineTool({
    name: 'get_traffic_sources',
    description: 'Get where visitors came from (search, social, referral, email, direct) over a date range.',
    tags: [...tags, 'acquisition'],
    input: z.object({ property: property(), ...range() }),
    execute: (input) => {
      const random = createRandom(input, 'get_traffic_sources');
      return {
        sources: ['organic search', 'direct', 'referral', 'social', 'email'].map((channel) => ({
          channel,
          sessions: random.int(100, 50_000),
        })),
      };
    },
  }),
  defineTool({
    name: 'get_conversion_funnel',
    description:
      'Get the step-by-step conversion of a funnel (e.g. visit → signup → purchase) over a date range.',
    tags: [...tags, 'funnels', 'conversions'],
    input: z.object({
      property: property(),
      ...range(),
      steps: z
        .array(z.string().min(1).max(100))
        .min(2)
        .max(10)
        .default(['visit', 'signup', 'purchase'])
        .describe('Event names of the funnel steps, in order'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'get_conversion_funnel');
      let users = random.int(5000, 50_000);
      return {
        steps: input.steps.map((step, index) => {
          if (index > 0) users = Math.round(users * random.float(0.1, 0.6));
          return { step, users };
        }),
      };
    },
  }),
  defineTool({
    name: 'get_retention_cohorts',
    description: 'Get weekly retention cohorts: the share of new users who come back in later weeks.',
    tags: [...tags, 'retention', 'cohorts'],
    input: z.object({
      property: property(),
      weeks: z.number().int().min(1).max(26).default(6).describe('Number of weekly cohorts'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'get_retention_cohorts');
      return {
        cohorts: Array.from({ length: Math.min(input.weeks, 6) }, (_, index) => ({
          cohort: `week -${index + 1}`,
          size: random.int(300, 3000),
          retention: Array.from(
            { length: index + 1 },
            (_, week) => Math.round(100 * 0.6 ** (week + 1) * random.float(0.8, 1.2)) / 100,
          ),
        })),
      };
    },
  }),
  defineTool({
    name: 'track_analytics_event',
    description: 'Send a custom analytics event (e.g. "signup_completed") with properties.',
    tags: [...tags, 'events'],
    input: z.object({
      property: property(),
      event: z.string().min(1).max(100).describe('Event name, e.g. "signup_completed"'),
      userId: z.string().max(100).optional().describe('User id the event belongs to'),
      properties: z
        .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
        .default({})
        .describe('Event properties'),
    }),
    execute: (input) => ({
      accepted: true,
      event: input.event,
      propertyCount: Object.keys(input.properties).length,
    }),
  }),
  defineTool({
    name: 'get_metric_timeseries',
    description: 'Get a metric (users, sessions, revenue…) per day over a date range.',
    tags: [...tags, 'timeseries'],
    input: z.object({ property: property(), metric: metric.default('users').describe('Metric'), ...range() }),
    execute: (input) => {
      const random = createRandom(input, 'get_metric_timeseries');
      const days = Math.min(31, spanDays(input.startDate, input.endDate));
      return {
        metric: input.metric,
        points: Array.from({ length: days }, (_, index) => ({
          date: addDays(input.startDate, index),
          value: input.metric === 'bounce_rate' ? random.float(0.2, 0.7) : random.int(100, 9000),
        })),
      };
    },
  }),
  defineTool({
    name: 'compare_analytics_periods',
    description:
      'Compare a metric between two periods (e.g. this week against last week) with the change in percent.',
    tags: [...tags, 'reports'],
    input: z.object({
      property: property(),
      metric: metric.default('users').describe('Metric'),
      ...range(),
    }),
    execute: (input) => {
      const random = createRandom(input, 'compare_analytics_periods');
      const current = random.int(1000, 90_000);
      const previous = random.int(1000, 90_000);
      const span = spanDays(input.startDate, input.endDate);
      return {
        metric: input.metric,
        current: { start: input.startDate, end: input.endDate, value: current },
        previous: {
          start: addDays(input.startDate, -span),
          end: addDays(input.startDate, -1),
          value: previous,
        },
        changePercent: Math.round(((current - previous) / previous) * 1000) / 10,
      };
    },
  }),
  defineTool({
    name: 'list_analytics_dashboards',
    description: 'List the saved analytics dashboards with their owners.',
    tags: [...tags, 'dashboards'],
    input: z.object({}),
    execute: () => ({
      dashboards: [
        { id: 'dash_growth', name: 'Growth', owner: 'maya.patel@acme.io' },
        { id: 'dash_revenue', name: 'Revenue', owner: 'tom.weber@acme.io' },
        { id: 'dash_product', name: 'Product usage', owner: 'ines.costa@acme.io' },
      ],
    }),
  }),
  defineTool({
    name: 'get_analytics_dashboard',
    description: 'Get the widgets and current figures of a saved analytics dashboard.',
    tags: [...tags, 'dashboards'],
    input: z.object({ dashboardId: z.string().min(1).max(100).describe('Dashboard id, e.g. "dash_growth"') }),
    execute: (input) => {
      const random = createRandom(input, 'get_analytics_dashboard');
      return {
        id: input.dashboardId,
        widgets: [
          { title: 'Weekly active users', value: random.int(1000, 40_000) },
          { title: 'Signups', value: random.int(50, 3000) },
          { title: 'Conversion rate', value: random.float(0.01, 0.09, 3) },
        ],
      };
    },
  }),
  defineTool({
    name: 'create_analytics_segment',
    description: 'Save an audience segment (e.g. "mobile users from Italy") to reuse in reports.',
    tags: [...tags, 'segments'],
    input: z.object({
      property: property(),
      name: fields.text('Segment name', 100),
      condition: fields.text('Condition, e.g. "device = mobile AND country = Italy"', 1000),
    }),
    execute: (input) => {
      const random = createRandom(input, 'create_analytics_segment');
      return { segmentId: random.id('seg_'), name: input.name, estimatedUsers: random.int(100, 40_000) };
    },
  }),
];
