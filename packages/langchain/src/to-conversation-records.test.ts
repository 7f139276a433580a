import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { LOAD_PROOF_KEY, toConversationRecords } from './to-conversation-records';

describe('toConversationRecords', () => {
  it('keeps AI tool calls and the tool messages answering them, nothing else', () => {
    const records = toConversationRecords([
      new SystemMessage('You may call load_tool.'),
      new HumanMessage('{"success":true,"loaded":["send_email"]}'),
      new AIMessage({
        content: 'Let me load it.',
        tool_calls: [
          { id: 'c1', name: 'load_tool', args: { toolName: 'send_email' } },
          { name: 'no_id', args: {} },
        ],
      }),
      new ToolMessage({ tool_call_id: 'c1', content: '{"success":true,"loaded":["send_email"]}' }),
      new ToolMessage({ tool_call_id: 'c2', name: 'get_weather', content: 'sunny' }),
      new ToolMessage({
        tool_call_id: 'c3',
        name: 'load_tool',
        content: '{"success":true}',
        status: 'error',
      }),
      new ToolMessage({ tool_call_id: 'c4', content: 'an orphan without a name' }),
    ]);
    expect(records).toEqual([
      { type: 'tool-call', toolCallId: 'c1', toolName: 'load_tool', input: { toolName: 'send_email' } },
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'load_tool',
        output: { success: true, loaded: ['send_email'] },
      },
      { type: 'tool-result', toolCallId: 'c2', toolName: 'get_weather', output: undefined },
      { type: 'tool-result', toolCallId: 'c3', toolName: 'load_tool', output: { success: true } },
    ]);
  });

  it("reads a meta-tool's error message too: earlier versions stored a load_tool that loaded some names and not others as one", () => {
    const records = toConversationRecords([
      new AIMessage({
        content: '',
        tool_calls: [
          { id: 'c1', name: 'load_tool', args: { toolNames: ['get_weather', 'nope'] } },
          { id: 'c2', name: 'load_tool', args: { toolName: 'send_email' } },
          { id: 'c3', name: 'get_weather', args: {} },
        ],
      }),
      new ToolMessage({
        tool_call_id: 'c1',
        name: 'load_tool',
        content: '{"success":false,"loaded":["get_weather"],"notFound":["nope"]}',
        status: 'error',
      }),
      // A rejection (humanInTheLoopMiddleware), a refusal: text, which loads nothing.
      new ToolMessage({
        tool_call_id: 'c2',
        name: 'load_tool',
        content: 'User rejected it',
        status: 'error',
      }),
      new ToolMessage({ tool_call_id: 'c3', name: 'get_weather', content: 'boom', status: 'error' }),
    ]);
    expect(records.filter((record) => record.type === 'tool-result')).toEqual([
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'load_tool',
        output: { success: false, loaded: ['get_weather'], notFound: ['nope'] },
      },
      { type: 'tool-result', toolCallId: 'c2', toolName: 'load_tool', output: 'User rejected it' },
      { type: 'tool-result', toolCallId: 'c3', toolName: 'get_weather', output: undefined },
    ]);
  });

  it("leaves out another tool's output: 'context' storage reads only the meta-tools', so a large result is neither parsed at every step nor held", () => {
    const page = JSON.stringify({
      html: 'x'.repeat(200_000),
      links: Array.from({ length: 1_000 }, (_, i) => `/p/${i}`),
    });
    const messages = [
      new AIMessage({
        content: '',
        tool_calls: [
          { id: 'f1', name: 'fetch_page', args: { url: 'https://example.com' } },
          { id: 'l1', name: 'load_tool', args: { toolName: 'send_email' } },
        ],
      }),
      new ToolMessage({ tool_call_id: 'f1', content: page }),
      new ToolMessage({ tool_call_id: 'l1', content: '{"success":true,"loaded":["send_email"]}' }),
    ];
    const records = toConversationRecords(messages);
    expect(records.filter((record) => record.type === 'tool-result')).toEqual([
      { type: 'tool-result', toolCallId: 'f1', toolName: 'fetch_page', output: undefined },
      {
        type: 'tool-result',
        toolCallId: 'l1',
        toolName: 'load_tool',
        output: { success: true, loaded: ['send_email'] },
      },
    ]);
  });

  it('reads content blocks as text, and the name of the call rather than a name the message claims', () => {
    const records = toConversationRecords([
      new AIMessage({
        content: '',
        tool_calls: [{ id: 'x', name: 'search_tools', args: { query: 'mail' } }],
      }),
      new ToolMessage({
        tool_call_id: 'x',
        name: 'load_tool',
        content: [
          { type: 'text', text: '{"results":[],' },
          { type: 'text', text: '"message":"none"}' },
        ],
      }),
    ]);
    expect(records[1]).toEqual({
      type: 'tool-result',
      toolCallId: 'x',
      toolName: 'search_tools',
      output: { results: [], message: 'none' },
    });
  });
  it('reads the load proof in the metadata only when the content is no longer an object', () => {
    const proof = { success: true, loaded: ['send_email'], receipt: 'v1.x' };
    const answer = (id: string, content: string, metadata: unknown) =>
      new ToolMessage({
        tool_call_id: id,
        name: 'load_tool',
        content,
        response_metadata: { [LOAD_PROOF_KEY]: metadata, context_editing: { cleared: true } },
      });
    const outputs = toConversationRecords([
      new AIMessage({
        content: '',
        tool_calls: ['p1', 'p2', 'p3', 'p4'].map((id) => ({ id, name: 'load_tool', args: {} })),
      }),
      answer('p1', '[cleared]', proof),
      answer('p2', '{"success":true,"loaded":["get_weather"]}', proof),
      answer('p3', '[cleared]', 'not an object'),
      answer('p4', '[cleared]', ['send_email']),
    ])
      .filter((record) => record.type === 'tool-result')
      .map((record) => record.output);
    expect(outputs).toEqual([proof, { success: true, loaded: ['get_weather'] }, '[cleared]', '[cleared]']);
  });
});
