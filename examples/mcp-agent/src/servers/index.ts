export type { CatalogServerCaller, CatalogServerSpec, RecordedCall } from './catalog-server';
export { annotationsFor, createCatalogServer } from './catalog-server';
export type { ExampleServerName, ExampleServers, StartExampleServersOptions } from './example-servers';
export { exampleServerSpecs, exampleUsers, startExampleServers } from './example-servers';
export type { HttpCatalogServer, HttpCatalogServerOptions } from './http-server';
export { startHttpCatalogServer } from './http-server';
export { stdioServerCommand } from './stdio-command';
export type { TokenTable } from './token-table';
export { bearerToken, createTokenTable } from './token-table';
