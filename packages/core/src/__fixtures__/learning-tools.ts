import type { ToolDescriptor } from '../types';

/** Four tools of different topics, for the tests of learning from use. */
export const learningTools: ToolDescriptor[] = [
  { name: 'getWeather', description: 'Current weather for a city' },
  { name: 'convertCurrency', description: 'Convert an amount between currencies' },
  { name: 'bookFlight', description: 'Book a flight between two airports' },
  { name: 'sendEmail', description: 'Send an email message to a recipient' },
];
