// Owns one request's catalog listing for the system prompt: the tools it may find and load, made
// once per request so that every step of it sends the same text.
import { catalogListingInstructions } from '../meta-tools';
import type { RequestFilter } from './request-filter';
import type { RequestTools } from './request-tools';

/**
 * The catalog as a system-prompt listing: the static tools in catalog order (those a request
 * tool of the same name shadows left out), then the request's tools; only tools that pass
 * both the 'search' and the 'load' filter, so nothing is advertised that cannot be loaded.
 * Made once per request (the filter's answers are memoised per request too), so every step
 * of a request sends the same text.
 */
export function createCatalogListing<TTool>(options: {
  readonly autoLoad: boolean;
  readonly tools: Pick<RequestTools<TTool>, 'staticCatalog' | 'requestCatalog' | 'shadowedByOwn'>;
  readonly filter: RequestFilter<TTool>;
}): () => Promise<string | undefined> {
  const { autoLoad, tools, filter } = options;
  const { staticCatalog, requestCatalog } = tools;
  let listing: Promise<string | undefined> | undefined;
  return () => {
    listing ??= (async () => {
      const entries = [
        ...(requestCatalog
          ? staticCatalog.entries.filter((entry) => !requestCatalog.byName(entry.descriptor.name))
          : staticCatalog.entries),
        ...(requestCatalog?.entries ?? []),
      ].filter((entry) => !tools.shadowedByOwn(entry));
      const checks = await Promise.all(
        entries.map(
          async (entry) => (await filter.entryAllowed(entry, 'search')) && filter.entryAllowed(entry, 'load'),
        ),
      );
      const listed = entries.filter((_, index) => checks[index]).map((entry) => entry.descriptor);
      return listed.length > 0 ? catalogListingInstructions(listed, { autoLoad }) : undefined;
    })();
    return listing;
  };
}
