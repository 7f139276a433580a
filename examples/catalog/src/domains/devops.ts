import { z } from 'zod';
import { defineTool } from '../define-tool';
import { addDays, catalogToday, repositories } from '../fake-data';
import { fields } from '../fields';
import { createRandom } from '../random';

const tags = ['devops', 'cloud'] as const;

const service = () => z.string().min(1).max(100).describe('Service name, e.g. "payments"');
const environment = () =>
  z.enum(['production', 'staging', 'development']).default('production').describe('Environment');
const stamp = (date: string, hour: number, minute: number) =>
  `${date}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00Z`;

export const devopsTools = [
  defineTool({
    name: 'deploy_service',
    description: 'Deploy a version of a service to an environment.',
    tags: [...tags, 'deployments'],
    input: z.object({
      service: service(),
      version: z.string().min(1).max(100).describe('Version or git SHA to deploy'),
      environment: environment(),
    }),
    execute: (input) => {
      const random = createRandom(input, 'deploy_service');
      return {
        deploymentId: random.id('dep_'),
        service: input.service,
        version: input.version,
        environment: input.environment,
        status: 'in_progress',
      };
    },
  }),
  defineTool({
    name: 'get_deployment_status',
    description: 'Get the status of a deployment: progress, healthy instances and errors.',
    tags: [...tags, 'deployments'],
    input: z.object({ deploymentId: z.string().min(1).max(100).describe('Deployment id') }),
    execute: (input) => {
      const random = createRandom(input, 'get_deployment_status');
      const total = random.int(2, 12);
      return {
        deploymentId: input.deploymentId,
        status: random.pick(['in_progress', 'succeeded', 'succeeded', 'failed']),
        healthyInstances: random.int(0, total),
        totalInstances: total,
      };
    },
  }),
  defineTool({
    name: 'rollback_deployment',
    description: 'Roll a service back to its previous deployed version.',
    tags: [...tags, 'deployments'],
    input: z.object({ service: service(), environment: environment() }),
    execute: (input) => {
      const random = createRandom(input, 'rollback_deployment');
      return {
        service: input.service,
        environment: input.environment,
        rolledBackTo: `v${random.int(1, 5)}.${random.int(0, 30)}.${random.int(0, 9)}`,
        status: 'in_progress',
      };
    },
  }),
  defineTool({
    name: 'list_deployments',
    description: 'List recent deployments of a service with who deployed what and when.',
    tags: [...tags, 'deployments'],
    input: z.object({ service: service(), environment: environment(), limit: fields.limit(100, 10) }),
    execute: (input) => {
      const random = createRandom(input, 'list_deployments');
      return {
        deployments: Array.from({ length: Math.min(input.limit, 4) }, (_, index) => ({
          deploymentId: random.id('dep_'),
          version: `v2.${20 - index}.${random.int(0, 9)}`,
          date: addDays(catalogToday, -index * 2),
          status: random.pick(['succeeded', 'succeeded', 'failed']),
        })),
      };
    },
  }),
  defineTool({
    name: 'search_logs',
    description: 'Search the logs of a service over a time window for a text or error.',
    tags: [...tags, 'logs', 'observability'],
    input: z.object({
      service: service(),
      query: fields.text('Text or error to look for, e.g. "refund failed"', 500),
      since: fields.dateTime('Start of the window (ISO 8601 UTC)').optional(),
      limit: fields.limit(1000, 20),
    }),
    execute: (input) => {
      const random = createRandom(input, 'search_logs');
      return {
        matches: Array.from({ length: Math.min(input.limit, random.int(0, 5)) }, () => ({
          timestamp: stamp(catalogToday, random.int(0, 23), random.int(0, 59)),
          level: random.pick(['error', 'warn', 'info']),
          message: `${input.query.slice(0, 60)} (request ${random.id('req_')})`,
        })),
      };
    },
  }),
  defineTool({
    name: 'get_service_metrics',
    description: 'Get the request rate, error rate and latency percentiles of a service over the last hours.',
    tags: [...tags, 'metrics', 'observability'],
    input: z.object({
      service: service(),
      hours: z.number().int().min(1).max(168).default(1).describe('Window in hours'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'get_service_metrics');
      return {
        service: input.service,
        requestsPerSecond: random.float(5, 900, 1),
        errorRatePercent: random.float(0, 4),
        latencyMs: { p50: random.int(20, 90), p95: random.int(100, 400), p99: random.int(400, 1500) },
      };
    },
  }),
  defineTool({
    name: 'list_alerts',
    description: 'List the monitoring alerts that are firing, with their severity and service.',
    tags: [...tags, 'alerts', 'observability'],
    input: z.object({
      severity: z.enum(['critical', 'warning', 'info']).optional().describe('Only alerts of this severity'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'list_alerts');
      return {
        alerts: Array.from({ length: random.int(0, 3) }, () => ({
          id: random.id('al_'),
          service: random.pick(repositories),
          title: random.pick(['High error rate', 'Latency p99 above 1s', 'Disk 90% full']),
          severity: input.severity ?? random.pick(['critical', 'warning']),
        })),
      };
    },
  }),
  defineTool({
    name: 'create_incident',
    description: 'Declare an incident with a title and severity, and page the on-call engineer.',
    tags: [...tags, 'incidents'],
    input: z.object({
      title: fields.text('What is broken', 300),
      severity: z.enum(['SEV1', 'SEV2', 'SEV3']).default('SEV2').describe('Severity'),
      service: service().optional(),
    }),
    execute: (input) => {
      const random = createRandom(input, 'create_incident');
      return {
        incidentId: random.id('INC-', { digits: true, length: 4 }),
        title: input.title,
        severity: input.severity,
        paged: 'on-call: payments-primary',
        status: 'investigating',
      };
    },
  }),
  defineTool({
    name: 'get_on_call_schedule',
    description: 'Get who is on call for a team now and for the next shifts.',
    tags: [...tags, 'on-call', 'incidents'],
    input: z.object({ team: z.string().min(1).max(100).describe('Team or escalation policy name') }),
    execute: (input) => {
      const random = createRandom(input, 'get_on_call_schedule');
      const people = random.sample(
        ['Ana Costa', 'Ben Hughes', 'Keiko Ito', 'Rafael Lopez', 'Olivia Weber'],
        3,
      );
      return {
        team: input.team,
        shifts: people.map((person, index) => ({
          person,
          start: addDays(catalogToday, index * 7),
          end: addDays(catalogToday, index * 7 + 7),
        })),
      };
    },
  }),
  defineTool({
    name: 'scale_service',
    description: 'Change the number of running instances of a service.',
    tags: [...tags, 'scaling'],
    input: z.object({
      service: service(),
      environment: environment(),
      instances: z.number().int().min(0).max(500).describe('Desired number of instances'),
    }),
    execute: (input) => ({
      service: input.service,
      environment: input.environment,
      desiredInstances: input.instances,
      status: 'scaling',
    }),
  }),
];
