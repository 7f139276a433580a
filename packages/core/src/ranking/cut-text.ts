/**
 * `text` cut to at most `max` UTF-16 code units, never between the two halves of a surrogate
 * pair (an emoji, a rare CJK character): a cut that would leave a lone high surrogate at the
 * end cuts before it, so the text stays well-formed.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
  return text.slice(0, end);
}
