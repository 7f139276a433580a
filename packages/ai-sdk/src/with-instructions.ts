import type { Instructions } from 'ai';

/**
 * The step's instructions with tool search's paragraph added once, after the app's own: a
 * string gets it as a second paragraph (as LangChain's adapter adds it to the system message),
 * system messages get it as one more system message after theirs (their provider options kept).
 * Instructions that already hold the paragraph (`toolSearch.instructions` written into them, or
 * added on an earlier step, which the SDK carries forward) are returned as they are, so each
 * step and each call sends the same prefix.
 */
export function withInstructions(instructions: Instructions | undefined, paragraph: string): Instructions {
  if (instructions === undefined || instructions === null || instructions === '') return paragraph;
  if (typeof instructions === 'string') {
    return instructions.includes(paragraph) ? instructions : `${instructions}\n\n${paragraph}`;
  }
  const messages = Array.isArray(instructions) ? instructions : [instructions];
  if (
    messages.some((message) => typeof message?.content === 'string' && message.content.includes(paragraph))
  ) {
    return instructions;
  }
  return [...messages, { role: 'system', content: paragraph }];
}
