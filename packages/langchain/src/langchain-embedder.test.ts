import { Embeddings } from '@langchain/core/embeddings';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { createHybridRanker, ToolSearchError } from '@tool-search/core';
import { conceptVectors } from '@tool-search/core/testing';
import { createAgent, fakeModel } from 'langchain';
import { describe, expect, it } from 'vitest';
import { createCatalog, createExecutionLog } from './__fixtures__/tools';
import { createLangChainEmbedder } from './langchain-embedder';
import { toolSearchMiddleware } from './tool-search-middleware';

/** Concept axes: texts about the same thing point the same way, whatever their words. */
const conceptVector = conceptVectors({
  weather: 0,
  forecast: 0,
  umbrella: 0,
  rain: 0,
  money: 1,
  currency: 1,
  euros: 1,
  email: 2,
  message: 2,
});

/**
 * A LangChain embeddings class of the asymmetric kind: a question must go through
 * `embedQuery` (a question embedded as a document lands on the money axis).
 */
class ConceptEmbeddings extends Embeddings {
  readonly model = 'concepts-v1';
  readonly documents: string[][] = [];
  readonly queries: string[] = [];

  constructor() {
    super({});
  }

  async embedDocuments(documents: string[]): Promise<number[][]> {
    this.documents.push(documents);
    return documents.map((text) => conceptVector(/umbrella|rain/.test(text) ? 'money' : text));
  }

  async embedQuery(document: string): Promise<number[]> {
    this.queries.push(document);
    return conceptVector(document);
  }
}

describe('createLangChainEmbedder', () => {
  it('embeds tools with embedDocuments (one call per catalog) and requests with embedQuery', async () => {
    const embeddings = new ConceptEmbeddings();
    const embedder = createLangChainEmbedder({ embeddings });
    expect(embedder.id).toBe('langchain:ConceptEmbeddings:concepts-v1');
    expect(await embedder.embed(['weather forecast', 'send an email'])).toEqual([
      conceptVector('weather forecast'),
      conceptVector('email'),
    ]);
    expect(await embedder.embedQueries!(['will it rain?', 'in euros'])).toEqual([
      conceptVector('rain'),
      conceptVector('euros'),
    ]);
    expect(embeddings.documents).toEqual([['weather forecast', 'send an email']]);
    expect(embeddings.queries).toEqual(['will it rain?', 'in euros']);
  });

  it('with queriesAsDocuments, embeds a request’s texts in one embedDocuments call', async () => {
    const embeddings = new ConceptEmbeddings();
    const embedder = createLangChainEmbedder({ embeddings, queriesAsDocuments: true });
    expect(await embedder.embedQueries!(['send an email', 'in euros'])).toEqual([
      conceptVector('email'),
      conceptVector('euros'),
    ]);
    expect(embeddings.documents).toEqual([['send an email', 'in euros']]);
    expect(embeddings.queries).toEqual([]);
  });

  it('lets a createAgent middleware find a tool that shares no word with the request', async () => {
    const log = createExecutionLog();
    const embeddings = new ConceptEmbeddings();
    const model = fakeModel()
      .respondWithTools([{ name: 'search_tools', args: { query: 'will I need an umbrella tomorrow?' } }])
      .respond(new AIMessage('Searched.'));
    const agent = createAgent({
      model,
      tools: [],
      middleware: [
        toolSearchMiddleware({
          tools: createCatalog(log),
          ranker: createHybridRanker({ embedder: createLangChainEmbedder({ embeddings }), weight: 0.6 }),
        }),
      ],
    });
    const result = await agent.invoke({ messages: [new HumanMessage('Do I need an umbrella?')] });
    const searched = result.messages.find(
      (message): message is ToolMessage => ToolMessage.isInstance(message) && message.name === 'search_tools',
    );
    expect(JSON.parse(String(searched?.content)).results[0].name).toBe('get_weather');
    // The catalog was embedded once as documents; the request and its parts as queries.
    expect(embeddings.documents).toHaveLength(1);
    expect(embeddings.documents[0]).toHaveLength(5);
    expect(embeddings.queries).toContain('will I need an umbrella tomorrow?');
  });

  it('rejects what is not LangChain embeddings, and bad dimensions, with a typed error', async () => {
    for (const options of [undefined, {}, { embeddings: { embedDocuments: () => [] } }] as never[]) {
      expect(() => createLangChainEmbedder(options)).toThrow(ToolSearchError);
    }
    expect(() => createLangChainEmbedder({ embeddings: new ConceptEmbeddings(), dimensions: 0 })).toThrow(
      ToolSearchError,
    );
    const embedder = createLangChainEmbedder({
      embeddings: new ConceptEmbeddings(),
      id: 'mine',
      dimensions: 4,
    });
    expect(embedder).toMatchObject({ id: 'mine', dimensions: 4 });
    await expect(embedder.embed('not an array' as never)).rejects.toThrow(ToolSearchError);
  });
});
