import { z } from 'zod';
import { defineTool } from '../define-tool';
import { addDays, catalogToday } from '../fake-data';
import { fields } from '../fields';
import { createRandom } from '../random';

const postgres = ['databases', 'postgres', 'sql'] as const;
const mongo = ['databases', 'mongodb'] as const;

const database = () => z.string().min(1).max(100).default('app').describe('Database name');
const tables = ['users', 'orders', 'payments', 'refunds', 'products', 'sessions'];
const collection = () => z.string().min(1).max(100).describe('Collection name, e.g. "orders"');

export const databasesTools = [
  defineTool({
    name: 'run_sql_query',
    description: 'Run a read-only SQL query on a PostgreSQL database and return the rows.',
    tags: [...postgres, 'query'],
    input: z.object({
      database: database(),
      sql: fields.text('A SELECT statement', 20000),
      limit: fields.limit(10000, 100),
    }),
    execute: (input) => {
      const random = createRandom(input, 'run_sql_query');
      const count = Math.min(input.limit, random.int(1, 5));
      return {
        columns: ['id', 'status', 'amount', 'created_at'],
        rows: Array.from({ length: count }, () => [
          random.int(1000, 99999),
          random.pick(['succeeded', 'failed', 'pending']),
          random.float(5, 500),
          addDays(catalogToday, -random.int(0, 30)),
        ]),
        rowCount: count,
        durationMs: random.int(2, 180),
      };
    },
  }),
  defineTool({
    name: 'execute_sql_statement',
    description:
      'Run a write SQL statement (INSERT, UPDATE, DELETE or DDL) on a PostgreSQL database in a transaction.',
    tags: [...postgres, 'write'],
    input: z.object({ database: database(), sql: fields.text('The SQL statement', 20000) }),
    execute: (input) => {
      const random = createRandom(input, 'execute_sql_statement');
      const verb = input.sql.trim().split(/\s+/)[0]?.toUpperCase() ?? 'UPDATE';
      return { command: verb, rowsAffected: random.int(0, 50), committed: true };
    },
  }),
  defineTool({
    name: 'explain_sql_query',
    description:
      'Show the PostgreSQL query plan (EXPLAIN ANALYZE) of a query, with estimated and actual costs.',
    tags: [...postgres, 'performance'],
    input: z.object({ database: database(), sql: fields.text('The query to explain', 20000) }),
    execute: (input) => {
      const random = createRandom(input, 'explain_sql_query');
      const table = random.pick(tables);
      return {
        plan: [
          `Limit  (cost=0.42..${random.float(10, 900)} rows=100)`,
          random.bool(0.5)
            ? `  ->  Index Scan using ${table}_pkey on ${table}`
            : `  ->  Seq Scan on ${table}  (rows=${random.int(1000, 900000)})`,
        ],
        executionTimeMs: random.float(0.2, 1200),
      };
    },
  }),
  defineTool({
    name: 'list_database_tables',
    description: 'List the tables of a PostgreSQL database with their row counts and sizes.',
    tags: [...postgres, 'schema'],
    input: z.object({
      database: database(),
      schema: z.string().max(63).default('public').describe('Schema name'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'list_database_tables');
      return {
        schema: input.schema,
        tables: tables.map((name) => ({
          name,
          rows: random.int(100, 5_000_000),
          sizeMb: random.float(0.1, 4000, 1),
        })),
      };
    },
  }),
  defineTool({
    name: 'describe_table',
    description: 'Describe a table: its columns with types and nullability, indexes and foreign keys.',
    tags: [...postgres, 'schema'],
    input: z.object({
      database: database(),
      table: z.string().min(1).max(63).describe('Table name, e.g. "orders"'),
    }),
    execute: (input) => ({
      table: input.table,
      columns: [
        { name: 'id', type: 'bigint', nullable: false },
        { name: 'user_id', type: 'bigint', nullable: false },
        { name: 'status', type: 'text', nullable: false },
        { name: 'amount', type: 'numeric(12,2)', nullable: true },
        { name: 'created_at', type: 'timestamptz', nullable: false },
      ],
      indexes: [`${input.table}_pkey`, `${input.table}_user_id_idx`],
      foreignKeys: [{ column: 'user_id', references: 'users(id)' }],
    }),
  }),
  defineTool({
    name: 'list_databases',
    description: 'List the databases on the PostgreSQL server with their sizes.',
    tags: [...postgres, 'admin'],
    input: z.object({}),
    execute: () => ({
      databases: [
        { name: 'app', sizeMb: 18_230 },
        { name: 'analytics', sizeMb: 92_004 },
        { name: 'staging', sizeMb: 1_240 },
      ],
    }),
  }),
  defineTool({
    name: 'create_database_backup',
    description: 'Start a backup (snapshot) of a database; returns the backup id to follow it.',
    tags: ['databases', 'backups', 'admin'],
    input: z.object({
      database: database(),
      label: z.string().max(100).optional().describe('A label to find the backup later'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'create_database_backup');
      return {
        backupId: random.id('bkp_'),
        database: input.database,
        status: 'running',
        label: input.label ?? null,
      };
    },
  }),
  defineTool({
    name: 'list_database_backups',
    description: 'List the backups of a database with their time, size and status.',
    tags: ['databases', 'backups', 'admin'],
    input: z.object({ database: database(), limit: fields.limit(100, 10) }),
    execute: (input) => {
      const random = createRandom(input, 'list_database_backups');
      return {
        backups: Array.from({ length: Math.min(input.limit, 4) }, (_, index) => ({
          backupId: random.id('bkp_'),
          date: addDays(catalogToday, -index),
          sizeGb: random.float(5, 40, 1),
          status: 'completed',
        })),
      };
    },
  }),
  defineTool({
    name: 'restore_database_backup',
    description: 'Restore a backup into a new database (the original is left untouched).',
    tags: ['databases', 'backups', 'admin'],
    input: z.object({
      backupId: z.string().min(1).max(100).describe('Backup to restore'),
      targetDatabase: z.string().min(1).max(100).describe('Name of the database to create'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'restore_database_backup');
      return {
        restoreId: random.id('rst_'),
        backupId: input.backupId,
        targetDatabase: input.targetDatabase,
        status: 'running',
      };
    },
  }),
  defineTool({
    name: 'find_mongo_documents',
    description: 'Find documents in a MongoDB collection matching a filter, with projection and sort.',
    tags: [...mongo, 'query'],
    input: z.object({
      database: database(),
      collection: collection(),
      filter: z.string().max(10000).default('{}').describe('Filter as JSON, e.g. {"status": "failed"}'),
      limit: fields.limit(1000, 20),
    }),
    execute: (input) => {
      const random = createRandom(input, 'find_mongo_documents');
      return {
        collection: input.collection,
        documents: Array.from({ length: Math.min(input.limit, random.int(0, 4)) }, () => ({
          _id: random.id('', { length: 24 }),
          status: random.pick(['failed', 'paid', 'pending']),
          total: random.float(5, 800),
        })),
      };
    },
  }),
  defineTool({
    name: 'insert_mongo_document',
    description: 'Insert one document (given as JSON) into a MongoDB collection.',
    tags: [...mongo, 'write'],
    input: z.object({
      database: database(),
      collection: collection(),
      document: fields.text('The document as JSON', 100000),
    }),
    execute: (input) => {
      const random = createRandom(input, 'insert_mongo_document');
      return { acknowledged: true, insertedId: random.id('', { length: 24 }) };
    },
  }),
  defineTool({
    name: 'aggregate_mongo_collection',
    description: 'Run an aggregation pipeline (JSON array of stages) on a MongoDB collection.',
    tags: [...mongo, 'query', 'aggregation'],
    input: z.object({
      database: database(),
      collection: collection(),
      pipeline: z
        .string()
        .max(20000)
        .default('[]')
        .describe('Pipeline as a JSON array, e.g. [{"$group": …}]'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'aggregate_mongo_collection');
      return {
        results: ['failed', 'paid', 'pending'].map((status) => ({ _id: status, count: random.int(1, 5000) })),
      };
    },
  }),
  defineTool({
    name: 'list_mongo_collections',
    description: 'List the collections of a MongoDB database with document counts.',
    tags: [...mongo, 'schema'],
    input: z.object({ database: database() }),
    execute: (input) => {
      const random = createRandom(input, 'list_mongo_collections');
      return {
        collections: ['orders', 'carts', 'events', 'customers'].map((name) => ({
          name,
          documents: random.int(100, 2_000_000),
        })),
      };
    },
  }),
  defineTool({
    name: 'get_redis_key',
    description: 'Read a key from Redis: its value, type and remaining time to live.',
    tags: ['databases', 'redis', 'cache'],
    input: z.object({ key: z.string().min(1).max(512).describe('Redis key, e.g. "session:42"') }),
    execute: (input) => {
      const random = createRandom(input, 'get_redis_key');
      return {
        key: input.key,
        type: 'string',
        value: random.bool(0.8) ? `value-${random.id('')}` : null,
        ttlSeconds: random.int(-1, 86400),
      };
    },
  }),
  defineTool({
    name: 'set_redis_key',
    description: 'Set a Redis key to a string value, optionally with an expiry in seconds.',
    tags: ['databases', 'redis', 'cache'],
    input: z.object({
      key: z.string().min(1).max(512).describe('Redis key'),
      value: z.string().max(100000).describe('Value to store'),
      ttlSeconds: z
        .number()
        .int()
        .min(1)
        .max(31_536_000)
        .optional()
        .describe('Expire after this many seconds'),
    }),
    execute: (input) => ({ ok: true, key: input.key, ttlSeconds: input.ttlSeconds ?? -1 }),
  }),
];
