/**
 * The hybrid ranker's pseudo-relevance feedback: how many leading tools a search's views are
 * moved towards, and the moved views (the whole request towards the mean of its leading
 * tools, each part towards the one leading tool most like it).
 */
import { feedbackViews, QueryViews, type ToolMatrix } from './tool-vectors';

/** Leading tools whose vectors the request's views are moved towards (pseudo-relevance feedback). */
const FEEDBACK_TOOLS = 2;
/**
 * For a request in several parts, each part's view is moved towards the one tool most similar
 * to it among this many leading tools of the first ranking (the whole request's view towards
 * the FEEDBACK_TOOLS leading ones): the tools leading a request of two parts often serve one
 * part each, and their mean pulled every part towards the other's tool.
 */
const PART_FEEDBACK_TOOLS = 6;
/** How far, by default: the share of those tools' mean vector added to each view before it is made unit length. */
export const DEFAULT_FEEDBACK = 0.3;

/** The leading tools of the first ranking the feedback reads, for a request of `viewCount` views. */
export function leadingToolCount(viewCount: number): number {
  return viewCount < 2 ? FEEDBACK_TOOLS : PART_FEEDBACK_TOOLS;
}

/**
 * The views moved by the feedback: the whole request's (the first) towards the mean of the
 * FEEDBACK_TOOLS leading tools; each part's, for a request of several, towards the one tool of
 * `leading` most similar to it.
 */
export function partFeedbackViews(
  matrix: ToolMatrix,
  views: readonly Float32Array[],
  leading: readonly number[],
  feedback: number,
): Float32Array[] {
  const whole = feedbackViews(matrix, views.slice(0, 1), leading.slice(0, FEEDBACK_TOOLS), feedback);
  if (views.length < 2) return whole;
  const parts = views.slice(1);
  const cosines = new QueryViews(matrix, parts).each(leading, leading.length);
  return [
    ...whole,
    ...parts.map((view, part) => {
      let closest = 0;
      for (let index = 1; index < leading.length; index++) {
        if (cosines[part * leading.length + index]! > cosines[part * leading.length + closest]!)
          closest = index;
      }
      return feedbackViews(matrix, [view], [leading[closest]!], feedback)[0]!;
    }),
  ];
}
