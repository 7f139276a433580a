import { ToolSearchError } from '../errors';
import type { ToolDescriptor } from '../types';

/**
 * Checks the tool list a ranker or an index is built over, and returns each name's position.
 * The list must be an array (`INVALID_OPTIONS`) of descriptors whose names are non-empty strings
 * (`INVALID_TOOL_NAME`) and unique (`DUPLICATE_TOOL_NAME`); any string is a valid name,
 * `__proto__` included. `who` names the caller in the messages.
 */
export function positionsByName(tools: readonly ToolDescriptor[], who: string): Map<string, number> {
  if (!Array.isArray(tools)) {
    throw new ToolSearchError('INVALID_OPTIONS', `${who} needs an array of tool descriptors`);
  }
  const positions = new Map<string, number>();
  for (let position = 0; position < tools.length; position++) {
    const tool: unknown = tools[position];
    const name: unknown =
      typeof tool === 'object' && tool !== null ? (tool as ToolDescriptor).name : undefined;
    if (typeof name !== 'string' || name.trim().length === 0) {
      throw new ToolSearchError(
        'INVALID_TOOL_NAME',
        `${who}: tool at position ${position} has no name (a non-empty string)`,
      );
    }
    if (positions.has(name)) {
      throw new ToolSearchError('DUPLICATE_TOOL_NAME', `${who}: two tools are named ${JSON.stringify(name)}`);
    }
    positions.set(name, position);
  }
  return positions;
}
