import { ToolSearchError, type ToolSearchErrorCode } from '../../errors';

/** The code of the `ToolSearchError` that `run` throws; `'other'` for any other throw, `'none'` if none. */
export function errorCode(run: () => unknown): ToolSearchErrorCode | 'none' | 'other' {
  try {
    run();
  } catch (error) {
    return ToolSearchError.isInstance(error) ? error.code : 'other';
  }
  return 'none';
}
