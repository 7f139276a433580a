export {
  type FakeProvider,
  type FakeProviderServer,
  type FakeProviderServerOptions,
  type FakeScript,
  type RecordedRequest,
  startFakeProviderServer,
} from './fake-provider-server';
export type { FakeReply, FakeToolCall, FakeToolSearchCall } from './fake-reply';
export {
  lastUserText,
  type SentTool,
  type SentToolAddition,
  type SentToolResult,
  sentToolAdditions,
  sentToolResults,
  sentTools,
} from './read-request';
