import { Embeddings, type EmbeddingsInterface } from '@langchain/core/embeddings';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { SyntheticEmbeddings } from '@langchain/core/utils/testing';
import {
  createHybridRanker,
  createMemoryVectorStore,
  createStoredEmbedder,
  ToolSearchError,
} from '@tool-search/core';
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

/**
 * Shaped like `@langchain/openai`'s `OpenAIEmbeddings` (public `model` and `dimensions`;
 * `dimensions` shortens every vector), over LangChain's synthetic test embeddings.
 */
class OpenAIEmbeddings extends SyntheticEmbeddings {
  readonly model = 'text-embedding-3-small';
  readonly dimensions: number | undefined;
  readonly documents: string[][] = [];

  constructor(fields: { dimensions?: number } = {}) {
    super({ vectorSize: fields.dimensions ?? 1536 });
    this.dimensions = fields.dimensions;
  }

  override async embedDocuments(documents: string[]): Promise<number[][]> {
    this.documents.push(documents);
    return super.embedDocuments(documents);
  }
}

/** Shaped like LangChain's `CacheBackedEmbeddings`: the wrapped model in `underlyingEmbeddings`. */
class CacheBackedEmbeddings extends Embeddings {
  constructor(readonly underlyingEmbeddings: EmbeddingsInterface) {
    super({});
  }

  embedDocuments(documents: string[]): Promise<number[][]> {
    return this.underlyingEmbeddings.embedDocuments(documents);
  }

  embedQuery(document: string): Promise<number[]> {
    return this.underlyingEmbeddings.embedQuery(document);
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

  it('names a numeric dimensions in the default id: shorter vectors are not served the stored longer ones', async () => {
    expect(createLangChainEmbedder({ embeddings: new OpenAIEmbeddings() }).id).toBe(
      'langchain:OpenAIEmbeddings:text-embedding-3-small',
    );
    expect(createLangChainEmbedder({ embeddings: new OpenAIEmbeddings({ dimensions: 256 }) }).id).toBe(
      'langchain:OpenAIEmbeddings:text-embedding-3-small:256',
    );
    const texts = ['get_weather. Weather forecast.', 'convert_currency. Money conversion.'];
    const store = createMemoryVectorStore(); // stands for Redis: what outlives the process
    // Yesterday's process kept full-length vectors.
    await createStoredEmbedder({
      embedder: createLangChainEmbedder({ embeddings: new OpenAIEmbeddings() }),
      store,
    }).embed(texts);
    // Today's asks for 256 dimensions: its vectors are its own, none of the store's is offered.
    const embeddings = new OpenAIEmbeddings({ dimensions: 256 });
    const errors: unknown[] = [];
    const vectors = await createStoredEmbedder({
      embedder: createLangChainEmbedder({ embeddings }),
      store,
      onError: (error) => errors.push(error),
    }).embed(texts);
    expect(errors).toEqual([]);
    expect(vectors.map((vector) => vector.length)).toEqual([256, 256]);
    expect(embeddings.documents).toEqual([texts]);
  });

  it('names the wrapped model of a wrapper such as CacheBackedEmbeddings in the default id', () => {
    const id = (embeddings: EmbeddingsInterface) => createLangChainEmbedder({ embeddings }).id;
    expect(id(new CacheBackedEmbeddings(new OpenAIEmbeddings({ dimensions: 256 })))).toBe(
      'langchain:CacheBackedEmbeddings:OpenAIEmbeddings:text-embedding-3-small:256',
    );
    expect(id(new CacheBackedEmbeddings(new ConceptEmbeddings()))).toBe(
      'langchain:CacheBackedEmbeddings:ConceptEmbeddings:concepts-v1',
    );
    // A wrapper that wraps itself does not loop.
    const loop = new CacheBackedEmbeddings(new ConceptEmbeddings());
    (loop as { underlyingEmbeddings: EmbeddingsInterface }).underlyingEmbeddings = loop;
    expect(id(loop)).toBe('langchain:CacheBackedEmbeddings');
  });
});
