// Owns the receipts of one request's meta-tool results: with a signing secret, a result that
// loads tools carries a signature of the thread, the meta-tool and what it loaded, which a
// 'context' replay checks before it trusts the load.
import { activatedNames, type ReceiptSigner } from '../context-state';
import type { LoadToolOutput, SearchToolsOutput } from '../types';

/** Signs a result of `metaToolName` for the request's thread, when it loads something; else returns it as is. */
export type SignResult = <T extends SearchToolsOutput | LoadToolOutput>(metaToolName: string, output: T) => T;

export function createResultSigner(signer: ReceiptSigner | undefined, threadId: string): SignResult {
  return (metaToolName, output) => {
    if (!signer) return output;
    const names = activatedNames(metaToolName, output);
    if (names.length === 0) return output;
    return { ...output, receipt: signer.sign(threadId, metaToolName, output) };
  };
}
