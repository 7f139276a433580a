/** Ready-made requests for the demo and the smoke tests, each with the tools a good run calls. */
export interface DemoRequest {
  /** Short kebab-case id, e.g. for `--request restaurant`. */
  readonly id: string;
  readonly text: string;
  /** The catalog tools a correct run calls, one per part of the request, in order. */
  readonly expectedTools: readonly string[];
}

export const demoRequests: readonly DemoRequest[] = [
  {
    id: 'restaurant',
    text: 'book a table for two in Rome tomorrow at 8pm',
    expectedTools: ['book_restaurant_table'],
  },
  {
    id: 'weather',
    text: "what's the weather forecast in Lisbon this weekend",
    expectedTools: ['get_weather_forecast'],
  },
  {
    id: 'issue',
    text: 'open an issue in the payments repo about failed refunds',
    expectedTools: ['create_github_issue'],
  },
  {
    id: 'slack',
    text: 'post "refund retries are live" to the #payments-alerts slack channel',
    expectedTools: ['send_slack_message'],
  },
  {
    id: 'trip',
    text: 'search hotels in Paris from July 3 for 3 nights and convert 500 EUR to USD',
    expectedTools: ['search_hotels', 'convert_currency'],
  },
];
