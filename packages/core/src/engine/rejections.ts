// Owns the engine's memory of the tool rejections it has reported (`tool-rejected` events): each
// distinct rejection once per engine, in a bounded map. The one use of a hash in the engine is here.
import type { RejectedToolReason } from '../catalog';
import { sha256Bytes, toBase64 } from '../crypto';
import type { Clock, ToolSearchEvent } from '../types';

/**
 * How many distinct tool rejections (tool name, reason and message) an engine remembers having
 * reported: each is reported once while remembered; past this many, the least recently seen is
 * forgotten, and reported again if it recurs.
 */
export const MAX_REMEMBERED_REJECTIONS = 1_000;

export interface RejectedTool {
  readonly toolName: string;
  readonly reason: RejectedToolReason;
  readonly message: string;
}

/** Reports a rejection of a thread's request, unless it was reported already (and is still remembered). */
export type ReportRejected = (threadId: string, rejected: RejectedTool) => void;

/**
 * `tool-rejected`: each distinct rejection (tool name, reason, message) is reported once per
 * engine, whatever its reason, however many requests repeat it (the agent passes the same tools
 * on every call; LangChain makes each model call a request). Remembered in a bounded map, the
 * least recently seen forgotten first (and reported again if it recurs).
 */
export function createRejectionReporter(
  emit: (event: ToolSearchEvent) => void,
  clock: Clock,
): ReportRejected {
  const reportedRejections = new Map<string, true>();
  return (threadId, rejected) => {
    const full = `${rejected.reason}\u0000${rejected.toolName}\u0000${rejected.message}`;
    // A name that is not valid may be any length: a long key is kept as its digest.
    const key = full.length > 512 ? toBase64(sha256Bytes(full)) : full;
    const known = reportedRejections.delete(key);
    reportedRejections.set(key, true);
    if (known) return;
    if (reportedRejections.size > MAX_REMEMBERED_REJECTIONS) {
      const oldest = reportedRejections.keys().next();
      if (!oldest.done) reportedRejections.delete(oldest.value);
    }
    emit({ type: 'tool-rejected', threadId, time: clock.now(), ...rejected });
  };
}
