import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { countPromptTokens, type OpenAIChatMessage } from './prompt-tokens';

/** Messages written out as the JSON a provider is sent, and parsed: the counts below are of these very strings. */
const parse = (json: string) => JSON.parse(json) as OpenAIChatMessage;
const system = '{"role":"system","content":"You are helpful.\\n\\nSearch, then load."}';
const systemWithout = '{"role":"system","content":"You are helpful."}';
const user = '{"role":"user","content":"weather in Lisbon"}';
const searchCall =
  '{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"search_tools","arguments":"{\\"query\\":\\"weather\\"}"}}]}';
const searchResult =
  '{"role":"tool","tool_call_id":"c1","content":"{\\"results\\":[{\\"name\\":\\"get_weather_forecast\\"}]}"}';
const mixedCall =
  '{"role":"assistant","content":"Loading it.","tool_calls":[{"id":"c2","type":"function","function":{"name":"load_tool","arguments":"{\\"toolName\\":\\"get_weather_forecast\\"}"}},{"id":"c3","type":"function","function":{"name":"get_timezone","arguments":"{\\"city\\":\\"Lisbon\\"}"}}]}';
const mixedCallWithout =
  '{"role":"assistant","content":"Loading it.","tool_calls":[{"id":"c3","type":"function","function":{"name":"get_timezone","arguments":"{\\"city\\":\\"Lisbon\\"}"}}]}';
const loadResult =
  '{"role":"tool","tool_call_id":"c2","content":"{\\"loaded\\":[\\"get_weather_forecast\\"]}"}';
const timezoneResult = '{"role":"tool","tool_call_id":"c3","content":"{\\"timezone\\":\\"Europe/Lisbon\\"}"}';

describe('countPromptTokens', () => {
  it('counts every message as JSON, and apart the meta-tools’ calls and results and the paragraph', () => {
    const all = [system, user, searchCall, searchResult, mixedCall, loadResult, timezoneResult];
    const counted = countPromptTokens(all.map(parse), { instructions: 'Search, then load.' });
    const tokens = (json: string) => countTokens(json);
    expect(counted).toEqual({
      messages: all.reduce((total, json) => total + tokens(json), 0),
      // The search call and its result whole; of the mixed message, what taking the load_tool call out
      // of it takes off; the load result whole; the timezone call and result are not tool search's.
      searchMessages:
        tokens(searchCall) +
        tokens(searchResult) +
        (tokens(mixedCall) - tokens(mixedCallWithout)) +
        tokens(loadResult),
      instructions: tokens(system) - tokens(systemWithout),
    });
    expect(counted.searchMessages).toBeGreaterThan(0);
    expect(counted.instructions).toBeGreaterThan(0);
  });

  it('counts a system message that holds only the paragraph whole, and the paragraph in a text part', () => {
    const own = '{"role":"system","content":"Search, then load."}';
    const parts =
      '{"role":"system","content":[{"type":"text","text":"You are helpful."},{"type":"text","text":"\\n\\nSearch, then load."}]}';
    const partsWithout = '{"role":"system","content":[{"type":"text","text":"You are helpful."}]}';
    const options = { instructions: 'Search, then load.' };
    expect(countPromptTokens([parse(own)], options).instructions).toBe(countTokens(own));
    expect(countPromptTokens([parse(parts)], options).instructions).toBe(
      countTokens(parts) - countTokens(partsWithout),
    );
    // Without the paragraph in the messages (or without knowing it), none is counted.
    expect(countPromptTokens([parse(systemWithout)], options).instructions).toBe(0);
    expect(countPromptTokens([parse(system)]).instructions).toBe(0);
  });

  it('knows a tool message by its call, or by its own name (LangChain sends it)', () => {
    const named = '{"role":"tool","content":"{}","name":"search_tools","tool_call_id":"elsewhere"}';
    expect(countPromptTokens([parse(named)]).searchMessages).toBe(countTokens(named));
    expect(countPromptTokens([parse(timezoneResult)]).searchMessages).toBe(0);
    expect(countPromptTokens([parse(searchCall)], { metaToolNames: ['find'] }).searchMessages).toBe(0);
  });
});
