import { z } from 'zod';
import { defineTool } from '../define-tool';
import { addDays, catalogToday, emailFor, firstNames, lastNames } from '../fake-data';
import { fields } from '../fields';
import { createRandom, type SeededRandom } from '../random';

const drive = ['files', 'google-drive'] as const;

const fileId = () => z.string().min(1).max(100).describe('Drive file id');
const owner = (random: SeededRandom) => emailFor(`${random.pick(firstNames)} ${random.pick(lastNames)}`);
const fileNames = [
  'Q2 budget.xlsx',
  'Roadmap 2025.docx',
  'Team offsite.pdf',
  'Invoice-4821.pdf',
  'Logo.png',
  'Meeting notes',
];
const mimeTypes = [
  'application/pdf',
  'application/vnd.google-apps.document',
  'application/vnd.google-apps.spreadsheet',
  'image/png',
];

export const filesTools = [
  defineTool({
    name: 'list_drive_files',
    description: 'List the files in a Google Drive folder, newest first.',
    tags: [...drive, 'list'],
    input: z.object({
      folderId: z.string().max(100).default('root').describe('Folder id; "root" for My Drive'),
      limit: fields.limit(1000, 25),
    }),
    execute: (input) => {
      const random = createRandom(input, 'list_drive_files');
      return {
        folderId: input.folderId,
        files: Array.from({ length: Math.min(input.limit, 5) }, () => ({
          id: random.id('1', { length: 12 }),
          name: random.pick(fileNames),
          mimeType: random.pick(mimeTypes),
          modified: addDays(catalogToday, -random.int(0, 90)),
        })),
      };
    },
  }),
  defineTool({
    name: 'search_drive_files',
    description: 'Search Google Drive for files by name or content, optionally of one type.',
    tags: [...drive, 'search'],
    input: z.object({
      query: fields.text('Words to look for in the file name or content', 500),
      fileType: z
        .enum(['any', 'document', 'spreadsheet', 'presentation', 'pdf', 'image', 'folder'])
        .default('any')
        .describe('Only this kind of file'),
      limit: fields.limit(100, 20),
    }),
    execute: (input) => {
      const random = createRandom(input, 'search_drive_files');
      return {
        files: Array.from({ length: Math.min(input.limit, random.int(0, 5)) }, () => ({
          id: random.id('1', { length: 12 }),
          name: `${input.query.slice(0, 40)} ${random.pick(['notes', 'draft', 'final', 'v2'])}`,
          type: input.fileType === 'any' ? random.pick(['document', 'spreadsheet', 'pdf']) : input.fileType,
          owner: owner(random),
        })),
      };
    },
  }),
  defineTool({
    name: 'get_drive_file',
    description: 'Get the metadata of a Drive file: name, type, size, owner and sharing link.',
    tags: [...drive, 'metadata'],
    input: z.object({ fileId: fileId() }),
    execute: (input) => {
      const random = createRandom(input, 'get_drive_file');
      return {
        id: input.fileId,
        name: random.pick(fileNames),
        mimeType: random.pick(mimeTypes),
        sizeBytes: random.int(2_000, 9_000_000),
        owner: owner(random),
        webViewLink: `https://drive.google.com/file/d/${input.fileId}/view`,
      };
    },
  }),
  defineTool({
    name: 'upload_drive_file',
    description: 'Upload a text file to Google Drive, into a folder.',
    tags: [...drive, 'upload'],
    input: z.object({
      name: z.string().min(1).max(255).describe('File name, e.g. "notes.txt"'),
      content: fields.text('File content', 1_000_000),
      folderId: z.string().max(100).default('root').describe('Destination folder id'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'upload_drive_file');
      return {
        id: random.id('1', { length: 12 }),
        name: input.name,
        sizeBytes: input.content.length,
        folderId: input.folderId,
      };
    },
  }),
  defineTool({
    name: 'create_drive_folder',
    description: 'Create a folder in Google Drive.',
    tags: [...drive, 'folders'],
    input: z.object({
      name: z.string().min(1).max(255).describe('Folder name'),
      parentId: z.string().max(100).default('root').describe('Parent folder id'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'create_drive_folder');
      return { id: random.id('1', { length: 12 }), name: input.name, parentId: input.parentId };
    },
  }),
  defineTool({
    name: 'move_drive_file',
    description: 'Move a Drive file or folder into another folder.',
    tags: [...drive, 'organise'],
    input: z.object({
      fileId: fileId(),
      folderId: z.string().min(1).max(100).describe('Destination folder id'),
    }),
    execute: (input) => ({ id: input.fileId, parents: [input.folderId] }),
  }),
  defineTool({
    name: 'share_drive_file',
    description: 'Share a Drive file with a person as viewer, commenter or editor.',
    tags: [...drive, 'sharing'],
    input: z.object({
      fileId: fileId(),
      email: fields.email('Person to share with'),
      role: z.enum(['reader', 'commenter', 'writer']).default('reader').describe('Access level'),
      notify: z.boolean().default(true).describe('Send an email notification'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'share_drive_file');
      return { permissionId: random.id('perm_'), fileId: input.fileId, email: input.email, role: input.role };
    },
  }),
  defineTool({
    name: 'list_drive_file_permissions',
    description: 'List who has access to a Drive file and with which role.',
    tags: [...drive, 'sharing'],
    input: z.object({ fileId: fileId() }),
    execute: (input) => {
      const random = createRandom(input, 'list_drive_file_permissions');
      return {
        fileId: input.fileId,
        permissions: [
          { email: owner(random), role: 'owner' },
          { email: owner(random), role: random.pick(['reader', 'writer', 'commenter']) },
          { type: 'anyone', role: 'reader', withLink: random.bool(0.3) },
        ],
      };
    },
  }),
  defineTool({
    name: 'delete_drive_file',
    description: 'Move a Drive file or folder to the trash.',
    tags: [...drive, 'organise'],
    input: z.object({ fileId: fileId() }),
    execute: (input) => ({ id: input.fileId, trashed: true }),
  }),
  defineTool({
    name: 'export_google_doc',
    description: 'Export a Google Docs, Sheets or Slides file as PDF, DOCX, XLSX, CSV or plain text.',
    tags: [...drive, 'export'],
    input: z.object({
      fileId: fileId(),
      format: z.enum(['pdf', 'docx', 'xlsx', 'csv', 'txt']).default('pdf').describe('Export format'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'export_google_doc');
      return {
        fileId: input.fileId,
        format: input.format,
        sizeBytes: random.int(5_000, 900_000),
        downloadUrl: `https://docs.google.com/export/${input.fileId}.${input.format}`,
      };
    },
  }),
  defineTool({
    name: 'create_google_doc',
    description: 'Create a Google Docs document with a title and initial text.',
    tags: ['files', 'google-docs', 'documents'],
    input: z.object({
      title: fields.text('Document title', 255),
      content: z.string().max(1_000_000).default('').describe('Initial text'),
      folderId: z.string().max(100).default('root').describe('Folder to create it in'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'create_google_doc');
      const id = random.id('1', { length: 16 });
      return { documentId: id, title: input.title, url: `https://docs.google.com/document/d/${id}/edit` };
    },
  }),
  defineTool({
    name: 'append_to_google_doc',
    description: 'Append text at the end of a Google Docs document.',
    tags: ['files', 'google-docs', 'documents'],
    input: z.object({
      documentId: z.string().min(1).max(100).describe('Document id'),
      text: fields.text('Text to append', 1_000_000),
    }),
    execute: (input) => ({ documentId: input.documentId, appendedCharacters: input.text.length }),
  }),
  defineTool({
    name: 'read_google_sheet',
    description: 'Read a range of cells from a Google Sheets spreadsheet, e.g. "Sheet1!A1:D20".',
    tags: ['files', 'google-sheets', 'spreadsheets'],
    input: z.object({
      spreadsheetId: z.string().min(1).max(100).describe('Spreadsheet id'),
      range: z.string().min(1).max(100).default('Sheet1!A1:D10').describe('A1 range to read'),
    }),
    execute: (input) => {
      const random = createRandom(input, 'read_google_sheet');
      return {
        range: input.range,
        values: [
          ['Month', 'Revenue', 'Costs', 'Margin'],
          ...['Jan', 'Feb', 'Mar', 'Apr'].map((month) => {
            const revenue = random.int(40_000, 90_000);
            const costs = random.int(20_000, 40_000);
            return [month, revenue, costs, revenue - costs];
          }),
        ],
      };
    },
  }),
  defineTool({
    name: 'update_google_sheet',
    description: 'Write values into a range of a Google Sheets spreadsheet.',
    tags: ['files', 'google-sheets', 'spreadsheets'],
    input: z.object({
      spreadsheetId: z.string().min(1).max(100).describe('Spreadsheet id'),
      range: z.string().min(1).max(100).describe('A1 range to write, e.g. "Sheet1!A2"'),
      values: z
        .array(z.array(z.union([z.string(), z.number()])).max(100))
        .min(1)
        .max(1000)
        .describe('Rows of cell values'),
    }),
    execute: (input) => ({
      updatedRange: input.range,
      updatedRows: input.values.length,
      updatedCells: input.values.reduce((sum, row) => sum + row.length, 0),
    }),
  }),
];
